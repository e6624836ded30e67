//! The account screens as a player meets them: welcome and sign-in, leaderboards, profile,
//! replays, the results' personal best, saved settings, and keys and password. Requests are
//! read with `take_requests`; answers are handed in with `deliver`, as a front end does.

use minotty_bots::autoplay;
use minotty_engine::{Game, GameConfig, Mode, ModeKind, Replay, RulesetId};

use super::*;
use crate::session::COUNTDOWN_MS;
use crate::settings::Settings;
use crate::{App, Key};
use crate::{Request, Response};
use minotty_protocol::{
    BoardId, BoardPeriod, BoardRow, GameRecorded, Identity, KeyView, LeaderboardPage, PAGE_ROWS,
    Profile, ProfileBest, RecentGame,
};

fn new_key(suggested: &str) -> App {
    app_as(Identity::NewKey {
        suggested: suggested.into(),
    })
}

fn typed(a: &mut App, s: &str) {
    for c in s.chars() {
        press(a, Key::Char(c), 0);
    }
}

fn backspaces(a: &mut App, n: usize) {
    for _ in 0..n {
        press(a, Key::Backspace, 0);
    }
}

fn row(rank: u64, name: &str, game: Option<i64>) -> BoardRow {
    BoardRow {
        rank,
        name: name.into(),
        values: vec![format!("0:{:02}.000", 30 + rank % 60), "2.50".into()],
        achieved_at: 1_763_769_600_000,
        game,
    }
}

pub(super) fn page(
    board: BoardId,
    period: BoardPeriod,
    offset: u32,
    total: u64,
) -> LeaderboardPage {
    let n = (total.saturating_sub(u64::from(offset))).min(u64::from(PAGE_ROWS));
    LeaderboardPage {
        board,
        ruleset: RulesetId::Standard,
        period,
        offset,
        total,
        columns: vec!["Time".into(), "PPS".into()],
        rows: (0..n)
            .map(|i| {
                let rank = u64::from(offset) + i + 1;
                row(rank, &format!("player{rank}"), Some(1000 + rank as i64))
            })
            .collect(),
        own: None,
    }
}

pub(super) const SPRINT: BoardId = BoardId::Solo(ModeKind::Sprint);

fn leaderboard_request(board: BoardId, period: BoardPeriod, offset: u32) -> Request {
    Request::Leaderboard {
        board,
        ruleset: RulesetId::Standard,
        period,
        offset,
    }
}

/// A 40-lines game played by the engine's bot, as a stored replay.
pub(super) fn bot_replay() -> (Replay, Game) {
    let mut game = Game::new(
        GameConfig {
            mode: Mode::sprint(),
            ..GameConfig::default()
        },
        11,
    );
    autoplay(&mut game, 1000, 150);
    (game.replay(), game)
}

// ---- welcome ------------------------------------------------------------------------------

#[test]
fn welcome_prefills_the_ssh_user_name_and_validates_as_you_type() {
    let mut a = new_key("j.doe!");
    let s = screen(&a);
    assert!(s.contains("WELCOME TO MINOTTY"), "{s}");
    assert!(s.contains("jdoe_"), "prefilled and focused:\n{s}");
    assert!(
        s.contains("Press Enter to register it, if no one has it yet"),
        "{s}"
    );
    assert!(
        !s.contains("Looks good"),
        "a name is not known to be free before Enter:\n{s}"
    );
    backspaces(&mut a, 4);
    assert!(screen(&a).contains("Type a name"), "{}", screen(&a));
    typed(&mut a, "ab");
    assert!(screen(&a).contains("At least 3 characters"));
    press(&mut a, Key::Enter, 0);
    assert!(a.take_requests().is_empty(), "an invalid name is not sent");
    typed(&mut a, "c d");
    assert!(
        screen(&a).contains("Only letters, digits"),
        "{}",
        screen(&a)
    );
    press(&mut a, Key::Backspace, 0);
    press(&mut a, Key::Backspace, 0);
    typed(&mut a, "_x");
    assert!(screen(&a).contains("abc_x_"));
    assert!(screen(&a).contains("Press Enter to register it"));
    // Names are cut to 16 characters, typed or suggested.
    typed(&mut a, &"z".repeat(20));
    assert!(screen(&a).contains(&format!("abc_x{}", "z".repeat(11))));
    assert!(!screen(&a).contains(&"z".repeat(12)));
    let b = new_key("...");
    assert!(screen(&b).contains("Type a name"), "{}", screen(&b));
    let c = new_key(&"q".repeat(30));
    assert!(screen(&c).contains(&"q".repeat(16)) && !screen(&c).contains(&"q".repeat(17)));
}

#[test]
fn registering_sends_the_name_and_signing_in_opens_the_menu_with_it() {
    let mut a = new_key("jdoe");
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::Register {
            name: "jdoe".into()
        }]
    );
    assert!(screen(&a).contains("Registering..."), "{}", screen(&a));
    let stored = Settings {
        ghost: false,
        ..Settings::default()
    };
    a.deliver(
        Response::SignedIn {
            name: "jdoe".into(),
            has_password: false,
            settings: Some(Box::new(stored)),
        },
        0,
    );
    let s = screen(&a);
    assert!(
        s.contains("M I N O T T Y") && s.contains("Hello, jdoe!"),
        "{s}"
    );
    assert!(!a.settings().ghost, "stored settings applied");
    assert_eq!(
        a.identity(),
        &Identity::Registered {
            name: "jdoe".into(),
            has_password: false
        }
    );
}

#[test]
fn a_refused_name_shows_why_and_can_be_edited() {
    let mut a = new_key("ada");
    press(&mut a, Key::Enter, 0);
    a.take_requests();
    a.deliver(
        Response::RegisterFailed {
            message: "The name ada is \u{1b}[31mtaken".into(),
        },
        0,
    );
    let s = screen(&a);
    assert!(s.contains("The name ada is [31mtaken"), "{s}");
    assert!(!s.contains('\u{1b}'));
    // Taken: the screen says how to add this key to that account, if it is the player's.
    assert!(
        s.contains("Is that account yours? Tab adds this key to it."),
        "{s}"
    );
    assert!(!s.contains("register it"), "{s}");
    typed(&mut a, "2");
    let s = screen(&a);
    assert!(
        s.contains("ada2_") && !s.contains("taken") && !s.contains("Tab adds"),
        "{s}"
    );
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::Register {
            name: "ada2".into()
        }]
    );
}

#[test]
fn linking_a_key_sends_name_and_password_and_never_draws_the_password() {
    let mut a = new_key("laptop");
    press(&mut a, Key::Tab, 0);
    assert!(screen(&a).contains("I ALREADY HAVE AN ACCOUNT"));
    typed(&mut a, "ada");
    press(&mut a, Key::Enter, 0); // to the password
    typed(&mut a, "hunter22");
    let s = screen(&a);
    assert!(!s.contains("hunter22") && s.contains("********"), "{s}");
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::LinkKey {
            name: "ada".into(),
            password: "hunter22".into()
        }]
    );
    a.deliver(
        Response::LinkFailed {
            message: "Wrong name or password".into(),
        },
        0,
    );
    let s = screen(&a);
    assert!(
        s.contains("Wrong name or password") && !s.contains("hunter"),
        "{s}"
    );
    typed(&mut a, "hunter23");
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::LinkKey {
            name: "ada".into(),
            password: "hunter23".into()
        }]
    );
    a.deliver(
        Response::SignedIn {
            name: "ada".into(),
            has_password: true,
            settings: None,
        },
        0,
    );
    assert!(screen(&a).contains("Hello, ada!"));
}

#[test]
fn escape_plays_as_a_guest_and_ctrl_c_asks_to_quit() {
    let mut a = new_key("ada");
    a.handle_key(ctrl('c'), 0);
    assert!(screen(&a).contains("Quit"), "{}", screen(&a));
    press(&mut a, Key::Esc, 0); // stay
    assert!(screen(&a).contains("WELCOME"));
    press(&mut a, Key::Esc, 1000);
    assert!(screen(&a).contains("M I N O T T Y"));
    assert_eq!(a.identity(), &Identity::Guest);
    assert!(a.take_requests().is_empty());
}

// ---- leaderboards -------------------------------------------------------------------------

#[test]
fn leaderboard_asks_for_pages_on_tabs_periods_and_paging() {
    let mut a = registered();
    menu_item(&mut a, 2);
    assert_eq!(
        a.take_requests(),
        [leaderboard_request(SPRINT, BoardPeriod::AllTime, 0)]
    );
    assert!(screen(&a).contains("Loading..."));
    a.deliver(
        Response::Leaderboard(page(SPRINT, BoardPeriod::AllTime, 0, 40)),
        0,
    );
    let s = screen(&a);
    // At 80 columns the tabs from 40 lines to survival show; versus and the climb are further
    // right (Left from 40 lines wraps round to the climb).
    for part in [
        "LEADERBOARDS",
        "< 40 Lines",
        "Survival .. >",
        "All time",
        "Time",
        "PPS",
    ] {
        assert!(s.contains(part), "{part}:\n{s}");
    }
    assert!(s.contains("player1 ") && s.contains("player15"), "{s}");
    assert!(s.contains("1-15 of 40"), "{s}");

    press(&mut a, Key::PageDown, 0);
    assert_eq!(
        a.take_requests(),
        [leaderboard_request(SPRINT, BoardPeriod::AllTime, 15)]
    );
    a.deliver(
        Response::Leaderboard(page(SPRINT, BoardPeriod::AllTime, 15, 40)),
        0,
    );
    assert!(screen(&a).contains("player30") && screen(&a).contains("16-30 of 40"));
    press(&mut a, Key::Char(']'), 0);
    a.deliver(
        Response::Leaderboard(page(SPRINT, BoardPeriod::AllTime, 30, 40)),
        0,
    );
    press(&mut a, Key::Char(']'), 0); // no page after the last
    assert_eq!(
        a.take_requests(),
        [leaderboard_request(SPRINT, BoardPeriod::AllTime, 30)]
    );
    press(&mut a, Key::Char('['), 0);
    assert_eq!(
        a.take_requests(),
        [leaderboard_request(SPRINT, BoardPeriod::AllTime, 15)]
    );
    press(&mut a, Key::Right, 0);
    let marathon = BoardId::Solo(ModeKind::Marathon);
    assert_eq!(
        a.take_requests(),
        [leaderboard_request(marathon, BoardPeriod::AllTime, 0)]
    );
    press(&mut a, Key::Tab, 0);
    press(&mut a, Key::Char('p'), 0);
    assert_eq!(
        a.take_requests(),
        [
            leaderboard_request(marathon, BoardPeriod::Month, 0),
            leaderboard_request(marathon, BoardPeriod::Today, 0)
        ]
    );
    // A stale page (the month) is ignored; the one asked for last is shown.
    a.deliver(
        Response::Leaderboard(page(marathon, BoardPeriod::Month, 0, 3)),
        0,
    );
    assert!(screen(&a).contains("Loading..."));
    a.deliver(
        Response::Leaderboard(page(marathon, BoardPeriod::Today, 0, 0)),
        0,
    );
    assert!(
        screen(&a).contains("No games yet - be the first!"),
        "{}",
        screen(&a)
    );
    press(&mut a, Key::Left, 0);
    press(&mut a, Key::Left, 0);
    assert_eq!(
        a.take_requests().last(),
        Some(&leaderboard_request(BoardId::Climb, BoardPeriod::Today, 0))
    );
    press(&mut a, Key::Left, 0);
    assert_eq!(
        a.take_requests().last(),
        Some(&leaderboard_request(BoardId::Versus, BoardPeriod::Today, 0))
    );
    let s = screen(&a);
    assert!(
        s.contains("< .. Ultra") && s.contains("Ascent Versus .. >"),
        "{s}"
    );
    press(&mut a, Key::Esc, 0);
    assert!(screen(&a).contains("M I N O T T Y"));
}

#[test]
fn own_row_is_highlighted_on_the_page_and_shown_below_it_otherwise() {
    let mut a = registered();
    menu_item(&mut a, 2);
    a.take_requests();
    let mut p = page(SPRINT, BoardPeriod::AllTime, 0, 300);
    p.own = Some(row(123, "ada", Some(77)));
    a.deliver(Response::Leaderboard(p.clone()), 0);
    let s = screen(&a);
    assert!(s.contains("You: #123  ada  0:33.000  2.50"), "{s}");
    // On the page: highlighted, and no "You:" line.
    p.rows[4] = row(5, "ada", Some(77));
    p.own = Some(row(5, "ada", Some(77)));
    press(&mut a, Key::Char('r'), 0);
    a.deliver(Response::Leaderboard(p), 0);
    let buf = draw(&a, 80, 24);
    let lines = crate::testutil::lines(&buf);
    assert!(!lines.join("\n").contains("You:"));
    let y = lines
        .iter()
        .position(|l| l.contains(" ada "))
        .expect("own row");
    let x = lines[y].find(" ada ").expect("name") as u16 + 1;
    let theme = crate::theme::Theme::new(&Settings::default());
    let cell = buf.cell((x, y as u16)).expect("cell");
    assert_eq!(cell.fg, theme.accent().fg.unwrap_or_default(), "{lines:?}");
}

#[test]
fn enter_on_a_row_asks_for_its_replay() {
    let mut a = registered();
    menu_item(&mut a, 2);
    a.take_requests();
    a.deliver(
        Response::Leaderboard(page(SPRINT, BoardPeriod::AllTime, 0, 5)),
        0,
    );
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    assert_eq!(a.take_requests(), [Request::Replay { game: 1003 }]);
    assert!(screen(&a).contains("Loading the replay..."));
    a.deliver(
        Response::Error {
            message: "no such game".into(),
        },
        0,
    );
    assert!(screen(&a).contains("no such game"), "{}", screen(&a));
}

#[test]
fn leaderboards_offline_say_they_need_the_server() {
    let mut a = app();
    menu_item(&mut a, 2);
    assert!(a.take_requests().is_empty());
    assert!(
        screen(&a).contains("needs the minotty server"),
        "{}",
        screen(&a)
    );
    press(&mut a, Key::Esc, 0);
    assert!(screen(&a).contains("M I N O T T Y"));
    // A server error while loading is shown.
    let mut b = registered();
    menu_item(&mut b, 2);
    b.deliver(
        Response::Error {
            message: "the database is busy".into(),
        },
        0,
    );
    assert!(screen(&b).contains("the database is busy"));
    // A front end without a server answers Offline.
    let mut c = registered();
    menu_item(&mut c, 2);
    c.deliver(Response::Offline, 0);
    assert!(screen(&c).contains("needs the minotty server"));
}

#[test]
fn control_characters_in_names_and_values_are_not_drawn() {
    let mut a = registered();
    menu_item(&mut a, 2);
    let mut p = page(SPRINT, BoardPeriod::AllTime, 0, 2);
    p.rows[0].name = "ev\u{1b}[2J\u{7}il\u{202e}".into();
    p.rows[1].values[0] = "1:00\u{1b}[H\n".into();
    p.columns[0] = "Ti\u{1b}me".into();
    a.deliver(Response::Leaderboard(p), 0);
    let s = screen(&a);
    assert!(
        s.contains("ev[2Jil") && s.contains("1:00[H") && s.contains("Time"),
        "{s}"
    );
    assert!(!s.chars().any(|c| c.is_control() && c != '\n'), "{s:?}");
}

// ---- replays ------------------------------------------------------------------------------

/// Opens a leaderboard, asks for game 1001's replay and delivers `replay`; returns the App
/// watching it from front-end time `t0`.
pub(super) fn watching(replay: &Replay, t0: u64) -> App {
    let mut a = registered();
    menu_item(&mut a, 2);
    a.deliver(
        Response::Leaderboard(page(SPRINT, BoardPeriod::AllTime, 0, 3)),
        0,
    );
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests().last(),
        Some(&Request::Replay { game: 1001 })
    );
    a.deliver(
        Response::Replay {
            game: 1001,
            player: "bo\u{1b}b".into(),
            replay: Box::new(replay.clone()),
        },
        t0,
    );
    a
}

#[test]
fn a_replay_plays_to_its_end_in_real_time_and_four_times_faster_at_4x() {
    let (replay, game) = bot_replay();
    assert!(game.is_over() && replay.end > 5_000, "end {}", replay.end);
    let t0 = 1_000;

    let mut a = watching(&replay, t0);
    let s = screen(&a);
    assert!(s.contains("REPLAY · bob · 40 Lines · standard · 1x"), "{s}");
    assert!(!s.contains('\u{1b}'));
    let seen = wakeups(&mut a, t0 + 10 * replay.end);
    let end_1x = *seen.last().expect("wakeups");
    assert_eq!(end_1x, t0 + replay.end);
    let s = screen(&a);
    assert!(
        s.contains("REPLAY FINISHED") && s.contains("FINISHED!"),
        "{s}"
    );
    assert!(s.contains("40/40"), "the final stats:\n{s}");
    assert_eq!(a.next_wakeup(), None);

    let mut b = watching(&replay, t0);
    // 1x to 4x in steps of 0.25x.
    for _ in 0..12 {
        press(&mut b, Key::Char('+'), t0);
    }
    assert!(screen(&b).contains("· 4x"));
    let seen = wakeups(&mut b, t0 + 10 * replay.end);
    let end_4x = *seen.last().expect("wakeups");
    assert!(end_4x - t0 <= replay.end.div_ceil(4) + 1, "{end_4x}");
    assert!(end_4x - t0 >= replay.end / 4, "{end_4x}");
    assert_eq!(
        screen(&a),
        screen(&b).replace("· 4x", "· 1x"),
        "the same final frame"
    );

    // Enter watches it again from the start; Esc goes back to the leaderboard.
    press(&mut b, Key::Enter, end_4x + 10);
    assert!(!screen(&b).contains("REPLAY FINISHED"));
    assert!(b.next_wakeup().is_some());
    press(&mut b, Key::Esc, end_4x + 20);
    assert!(screen(&b).contains("LEADERBOARDS") && screen(&b).contains("player1"));
}

#[test]
fn a_paused_replay_stands_still() {
    let (replay, _) = bot_replay();
    let mut a = watching(&replay, 0);
    wakeups(&mut a, 3_000);
    press(&mut a, Key::Char(' '), 3_000);
    let before = screen(&a);
    assert!(before.contains("PAUSED"), "{before}");
    assert_eq!(a.next_wakeup(), None);
    a.tick(10_000);
    assert_eq!(screen(&a), before);
    press(&mut a, Key::Char(' '), 10_000);
    wakeups(&mut a, 10_000 + replay.end - 3_000 - 1);
    assert!(!screen(&a).contains("REPLAY FINISHED"));
    wakeups(&mut a, 10_000 + replay.end);
    assert!(screen(&a).contains("REPLAY FINISHED"));
}

// ---- profile ------------------------------------------------------------------------------

#[test]
fn profile_shows_bests_and_recent_games_and_enter_watches_one() {
    let mut a = registered();
    menu_item(&mut a, 3);
    assert_eq!(a.take_requests(), [Request::Profile]);
    let profile = Profile {
        name: "ada".into(),
        bests: ModeKind::ALL[..6]
            .iter()
            .map(|&mode| ProfileBest {
                mode,
                ruleset: RulesetId::Standard,
                best: (mode == ModeKind::Sprint).then(|| "0:58.123".into()),
                rank: (mode == ModeKind::Sprint).then_some(12),
                game: (mode == ModeKind::Sprint).then_some(9),
            })
            .collect(),
        recent: vec![
            RecentGame {
                game: 41,
                mode: ModeKind::Marathon,
                ruleset: RulesetId::Tetrs,
                ended_at: 1_763_769_600_000,
                result: "12,345 pts".into(),
                outcome: "topped out".into(),
            },
            RecentGame {
                game: 40,
                mode: ModeKind::Sprint,
                ruleset: RulesetId::Standard,
                ended_at: 1_763_769_600_000,
                result: "0:58.123".into(),
                outcome: "finished".into(),
            },
        ],
        matches: Vec::new(),
        rating: Some((1612.4, 80.2, 14)),
        ranked: None,
        charts: Default::default(),
    };
    a.deliver(Response::Profile(profile), 0);
    let s = screen(&a);
    for part in [
        "PROFILE",
        "0:58.123",
        "#12",
        "12,345 pts",
        "topped out",
        "2025-11-22",
        "1612",
    ] {
        assert!(s.contains(part), "{part}:\n{s}");
    }
    for _ in 0..6 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    assert_eq!(a.take_requests(), [Request::Replay { game: 41 }]);
    let (replay, _) = bot_replay();
    a.deliver(
        Response::Replay {
            game: 41,
            player: "ada".into(),
            replay: Box::new(replay),
        },
        0,
    );
    assert!(screen(&a).contains("REPLAY · ada"));
    press(&mut a, Key::Esc, 0);
    assert!(screen(&a).contains("PROFILE"));
}

#[test]
fn guests_and_offline_players_are_told_why_there_is_no_profile() {
    let mut g = app_as(Identity::Guest);
    menu_item(&mut g, 3);
    assert!(g.take_requests().is_empty());
    assert!(screen(&g).contains("playing as a guest"), "{}", screen(&g));
    let mut o = app();
    menu_item(&mut o, 3);
    assert!(screen(&o).contains("needs the minotty server"));
}

// ---- results ------------------------------------------------------------------------------

fn results_of(mut a: App) -> App {
    a.play(ModeKind::Sprint, 0);
    a.tick(COUNTDOWN_MS);
    a.handle_key(ctrl('d'), COUNTDOWN_MS + 10);
    press(&mut a, Key::Enter, COUNTDOWN_MS + 20);
    assert!(screen(&a).contains("RESULTS"), "{}", screen(&a));
    a
}

#[test]
fn results_show_a_new_personal_best_and_the_global_rank() {
    let mut a = results_of(registered());
    assert!(!screen(&a).contains("PERSONAL BEST"));
    a.deliver(
        Response::GameRecorded(GameRecorded {
            game: 5,
            personal_best: true,
            rank: Some(3),
            note: None,
            previous_best: None,
        }),
        0,
    );
    let s = screen(&a);
    assert!(
        s.contains("NEW PERSONAL BEST") && s.contains("Global rank #3"),
        "{s}"
    );
    // The next game's results do not repeat it.
    press(&mut a, Key::Char('r'), 10_000);
    a.handle_key(ctrl('d'), 20_000);
    press(&mut a, Key::Enter, 20_010);
    assert!(!screen(&a).contains("PERSONAL BEST"));
    a.deliver(
        Response::GameRecorded(GameRecorded {
            game: 6,
            personal_best: false,
            rank: None,
            note: Some("forfeited games are not \u{1b}ranked".into()),
            previous_best: None,
        }),
        0,
    );
    assert!(screen(&a).contains("forfeited games are not ranked"));

    // A game the server could not store says so.
    let mut b = results_of(registered());
    b.deliver(
        Response::Error {
            message: "your game could not be stored".into(),
        },
        0,
    );
    assert!(screen(&b).contains("your game could not be stored"));

    let g = results_of(app_as(Identity::Guest));
    assert!(screen(&g).contains("Guest games are not stored"));
    let o = results_of(app());
    assert!(!screen(&o).contains("stored") && !screen(&o).contains("rank #"));
}

#[test]
fn a_local_player_asks_the_front_end_for_boards_profile_and_settings_but_not_for_versus() {
    let local = || app_as(Identity::Local { name: "ada".into() });
    // The scoreboard is asked for like a server's board and drawn under its own title.
    let mut a = local();
    menu_item(&mut a, 2);
    let asked = a.take_requests();
    assert_eq!(
        asked,
        [leaderboard_request(
            BoardId::Solo(ModeKind::Sprint),
            BoardPeriod::AllTime,
            0
        )]
    );
    a.deliver(
        Response::Leaderboard(page(
            BoardId::Solo(ModeKind::Sprint),
            BoardPeriod::AllTime,
            0,
            3,
        )),
        0,
    );
    let s = screen(&a);
    assert!(s.contains("YOUR SCOREBOARD ON THIS COMPUTER"), "{s}");
    assert!(!s.contains("LEADERBOARDS"), "{s}");
    // The profile is asked for too.
    let mut p = local();
    menu_item(&mut p, 3);
    assert_eq!(p.take_requests(), [Request::Profile]);
    p.deliver(
        Response::Profile(Profile {
            name: "ada".into(),
            bests: vec![],
            recent: vec![],
            matches: Vec::new(),
            rating: None,
            ranked: None,
            charts: Default::default(),
        }),
        0,
    );
    assert!(!screen(&p).contains("global rank"), "{}", screen(&p));
    // Settings changed are handed over when the settings screen is left.
    let mut st = local();
    menu_item(&mut st, 4);
    for _ in 0..7 {
        press(&mut st, Key::Down, 0);
    }
    press(&mut st, Key::Right, 0);
    press(&mut st, Key::Esc, 0);
    assert!(matches!(
        st.take_requests().as_slice(),
        [Request::SaveSettings(s)] if !s.ghost
    ));
    // The results say what keeping the game earned.
    let mut r = results_of(local());
    r.deliver(
        Response::GameRecorded(GameRecorded {
            game: 4,
            personal_best: true,
            rank: None,
            note: Some("#1 of your 40 Lines games".into()),
            previous_best: None,
        }),
        0,
    );
    let s = screen(&r);
    assert!(
        s.contains("NEW PERSONAL BEST") && s.contains("#1 of your 40 Lines games"),
        "{s}"
    );
    // Keys and versus need a server.
    let mut k = local();
    menu_item(&mut k, 4);
    for _ in 0..3 {
        press(&mut k, Key::Up, 0);
    }
    press(&mut k, Key::Enter, 0);
    assert!(k.take_requests().is_empty());
    assert!(
        screen(&k).contains("needs the minotty server"),
        "{}",
        screen(&k)
    );
    let mut v = local();
    menu_item(&mut v, 1);
    press(&mut v, Key::Enter, 0);
    assert!(v.take_requests().is_empty());
}

// ---- settings, keys and password ----------------------------------------------------------

#[test]
fn leaving_settings_after_a_change_saves_them_for_registered_players() {
    let mut a = registered();
    menu_item(&mut a, 4);
    press(&mut a, Key::Esc, 0);
    assert!(a.take_requests().is_empty(), "nothing changed");
    press(&mut a, Key::Enter, 0);
    for _ in 0..7 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Right, 0); // ghost off
    assert!(
        a.take_requests().is_empty(),
        "saved when leaving, not on every change"
    );
    press(&mut a, Key::Esc, 0);
    let expected = Settings {
        ghost: false,
        ..Settings::default()
    };
    assert_eq!(
        a.take_requests(),
        [Request::SaveSettings(Box::new(expected))]
    );
    let mut g = app_as(Identity::Guest);
    menu_item(&mut g, 4);
    press(&mut g, Key::Right, 0);
    press(&mut g, Key::Esc, 0);
    assert!(g.take_requests().is_empty());
}

fn key(fp: &str, in_use: bool) -> KeyView {
    KeyView {
        fingerprint: fp.into(),
        algorithm: "ssh-ed25519".into(),
        added_at: 1_763_769_600_000,
        last_used_at: None,
        in_use,
    }
}

/// Registered, on the keys screen opened from the settings, with two keys listed.
fn keys_screen() -> App {
    keys_screen_of(registered())
}

/// [`keys_screen`] for a player whose account has a password.
fn keys_screen_with_password() -> App {
    keys_screen_of(app_as(Identity::Registered {
        name: "ada".into(),
        has_password: true,
    }))
}

fn keys_screen_of(mut a: App) -> App {
    menu_item(&mut a, 4);
    for _ in 0..3 {
        press(&mut a, Key::Up, 0);
    }
    assert!(screen(&a).contains("Account (password, keys)"));
    press(&mut a, Key::Enter, 0);
    assert_eq!(a.take_requests(), [Request::ListKeys]);
    a.deliver(
        Response::Keys(vec![
            key("SHA256:thisone0000000000000000000000000000000000", true),
            key(
                "SHA256:other\u{1b}1111111111111111111111111111111111",
                false,
            ),
        ]),
        0,
    );
    a
}

#[test]
fn the_key_in_use_cannot_be_removed_and_another_one_can() {
    let mut a = keys_screen();
    let s = screen(&a);
    assert!(
        s.contains("SHA256:thisone") && s.contains("this key"),
        "{s}"
    );
    assert!(
        s.contains("SHA256:other1111") && !s.contains('\u{1b}'),
        "{s}"
    );
    assert_eq!(
        s.matches("  ed25519  added").count(),
        2,
        "each key's algorithm: {s}"
    );
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    assert!(a.take_requests().is_empty());
    assert!(screen(&a).contains("cannot be removed"), "{}", screen(&a));
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    assert!(a.take_requests().is_empty(), "asks to confirm first");
    assert!(screen(&a).contains("Press Enter again"));
    press(&mut a, Key::Enter, 0);
    let fp = "SHA256:other1111111111111111111111111111111111".to_string();
    assert_eq!(
        a.take_requests(),
        [Request::RemoveKey {
            fingerprint: fp.clone()
        }]
    );
    a.deliver(Response::KeyRemoved { fingerprint: fp }, 0);
    let s = screen(&a);
    assert!(
        s.contains("Key removed.") && !s.contains("SHA256:other"),
        "{s}"
    );
    press(&mut a, Key::Esc, 0);
    assert!(screen(&a).contains("SETTINGS"));
}

#[test]
fn setting_a_password_checks_length_and_repetition_and_never_draws_it() {
    let mut a = keys_screen();
    typed(&mut a, "short");
    press(&mut a, Key::Enter, 0);
    typed(&mut a, "short");
    press(&mut a, Key::Enter, 0);
    assert!(a.take_requests().is_empty());
    assert!(
        screen(&a).contains("at least 8 characters"),
        "{}",
        screen(&a)
    );
    backspaces(&mut a, 5);
    typed(&mut a, "correct horse");
    press(&mut a, Key::Enter, 0);
    typed(&mut a, "correct house");
    press(&mut a, Key::Enter, 0);
    assert!(a.take_requests().is_empty());
    assert!(screen(&a).contains("differ"));
    typed(&mut a, "correct horse");
    assert!(!screen(&a).contains("horse") && screen(&a).contains("*************"));
    press(&mut a, Key::Enter, 0);
    typed(&mut a, "correct horse");
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::SetPassword {
            password: "correct horse".into(),
            current: None,
        }]
    );
    a.deliver(Response::PasswordSet, 0);
    assert!(screen(&a).contains("Password set."));
    assert_eq!(
        a.identity(),
        &Identity::Registered {
            name: "ada".into(),
            has_password: true
        }
    );
    a.deliver(
        Response::PasswordFailed {
            message: "too many attempts".into(),
        },
        0,
    );
    assert!(screen(&a).contains("too many attempts"));
}

#[test]
fn changing_a_password_asks_for_the_current_one_first() {
    let mut a = keys_screen_with_password();
    let s = screen(&a);
    assert!(s.contains("Current") && s.contains("New password"), "{s}");
    // Without the current password nothing is sent.
    press(&mut a, Key::Enter, 0);
    typed(&mut a, "battery staple");
    press(&mut a, Key::Enter, 0);
    typed(&mut a, "battery staple");
    press(&mut a, Key::Enter, 0);
    assert!(a.take_requests().is_empty());
    assert!(
        screen(&a).contains("current password first"),
        "{}",
        screen(&a)
    );
    typed(&mut a, "correct horse");
    assert!(!screen(&a).contains("horse"), "masked");
    // The new password is still there: Enter through it and its repetition.
    for _ in 0..3 {
        press(&mut a, Key::Enter, 0);
    }
    assert_eq!(
        a.take_requests(),
        [Request::SetPassword {
            password: "battery staple".into(),
            current: Some("correct horse".into()),
        }]
    );
    a.deliver(
        Response::PasswordFailed {
            message: "the current password is wrong: nothing was changed".into(),
        },
        0,
    );
    let s = screen(&a);
    assert!(s.contains("current password is wrong"), "{s}");
    // The keys are still listed below the three fields, and reachable.
    for _ in 0..4 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    assert!(a.take_requests().is_empty());
    assert!(screen(&a).contains("Press Enter again"), "{}", screen(&a));
}

#[test]
fn guests_are_told_why_there_are_no_keys() {
    let mut g = app_as(Identity::Guest);
    menu_item(&mut g, 4);
    for _ in 0..3 {
        press(&mut g, Key::Up, 0);
    }
    press(&mut g, Key::Enter, 0);
    assert!(g.take_requests().is_empty());
    assert!(
        screen(&g).contains("belong to registered players"),
        "{}",
        screen(&g)
    );
    press(&mut g, Key::Esc, 0);
    assert!(screen(&g).contains("SETTINGS"));
}

// ---- every screen at every size -----------------------------------------------------------

#[test]
fn account_screens_draw_at_the_smallest_size_and_larger() {
    let (replay, _) = bot_replay();
    let mut screens: Vec<App> = vec![new_key("ada")];
    let mut link = new_key("ada");
    press(&mut link, Key::Tab, 0);
    screens.push(link);
    let mut board = registered();
    menu_item(&mut board, 2);
    let mut p = page(SPRINT, BoardPeriod::AllTime, 0, 1000);
    p.own = Some(row(999, "ada", None));
    board.deliver(Response::Leaderboard(p), 0);
    screens.push(board);
    let mut profile = registered();
    menu_item(&mut profile, 3);
    screens.push(profile);
    let mut watch = watching(&replay, 0);
    wakeups(&mut watch, 5_000);
    screens.push(watch);
    screens.push(keys_screen());
    screens.push(keys_screen_with_password());
    for a in &screens {
        for (w, h) in [(60, 24), (61, 25), (80, 24), (200, 60), (30, 10), (1, 1)] {
            let buf = draw(a, w, h);
            let text = crate::testutil::lines(&buf).join("\n");
            if w >= 60 && h >= 24 {
                assert!(!text.contains("enlarge"), "{w}x{h}:\n{text}");
            }
        }
    }
    // At 60 x 24 the leaderboard still shows the tabs around the one shown, 15 rows and the
    // own line.
    let s = crate::testutil::lines(&draw(&screens[2], 60, 24)).join("\n");
    assert!(
        s.contains("< 40 Lines") && s.contains("Descent .. >"),
        "{s}"
    );
    assert!(s.contains("player15") && s.contains("You: #999"), "{s}");
}

#[test]
fn w_on_the_keys_unlinks_every_browser() {
    let mut a = keys_screen();
    assert!(screen(&a).contains("w unlink browsers"), "{}", screen(&a));
    // In a password field, `w` is typed; on the keys, it unlinks the browsers.
    press(&mut a, Key::Char('w'), 0);
    assert!(a.take_requests().is_empty(), "typed into the field");
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Char('w'), 0);
    assert_eq!(a.take_requests(), [Request::UnlinkBrowsers]);
    a.deliver(Response::BrowsersUnlinked { count: 2 }, 0);
    assert!(screen(&a).contains("Unlinked 2 browsers"), "{}", screen(&a));
}
