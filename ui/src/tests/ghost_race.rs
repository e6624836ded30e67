//! Ghost races (40 lines, ultra): G on the mode select asks for the player's best, and the
//! answer starts a race dealt the ghost's seed, marked in its replay (never ranked); the ghost
//! drawn beside the board at 80x24 and wider, or as an outline on it; the split; the bound on
//! what one update feeds the ghost; a ghost that cannot be raced said plainly.

use minotty_engine::{
    GHOST_STEP_INPUTS, Game, GameConfig, GhostSplit, Handling, Input, Mode, Replay, RulesetId,
    Tuning,
};
use minotty_protocol::{GhostWanted, Response};

use super::*;
use crate::Request;
use crate::session::{lines_text, time_text};
use crate::settings::GhostView;

/// A 40-lines game the placement bot finished (seed 21), as a stored best's replay.
fn best_replay() -> Replay {
    let mut game = Game::new(
        GameConfig {
            ruleset: RulesetId::Standard,
            mode: Mode::sprint(),
            handling: Handling::default(),
            tuning: Tuning::default(),
        },
        21,
    );
    minotty_bots::autoplay(&mut game, 400, 150);
    assert_eq!(game.stats().lines, 40);
    game.replay()
}

/// ada on the mode select, G pressed on 40 lines, the ghost (bob's) answered: the race counts
/// down. Returns the App and the ghost's replay.
fn racing(settings: crate::Settings) -> (App, Replay) {
    let mut a = registered();
    a.set_settings(settings);
    menu_item(&mut a, 0);
    assert!(screen(&a).contains("40 lines"), "{}", screen(&a));
    press(&mut a, Key::Char('g'), 0);
    let asked = a.take_requests();
    assert!(
        asked.contains(&Request::Ghost(GhostWanted::Best {
            mode: ModeKind::Sprint,
            ruleset: RulesetId::Standard,
        })),
        "{asked:?}"
    );
    assert!(screen(&a).contains("Fetching your best"), "{}", screen(&a));
    let replay = best_replay();
    a.deliver(
        Response::Ghost {
            game: 12,
            player: "bob\u{1b}[31m".into(),
            replay: Box::new(replay.clone()),
        },
        0,
    );
    (a, replay)
}

#[test]
fn g_on_40_lines_races_your_best_on_its_seed_and_the_replay_says_so() {
    let (mut a, replay) = racing(crate::Settings::default());
    assert!(a.in_game(), "{}", screen(&a));
    a.tick(COUNTDOWN_MS + 1);
    let game = a.game().expect("a game");
    assert_eq!(game.seed(), replay.seed, "dealt the ghost's seed");
    assert_eq!(game.mode(), &replay.mode);
    assert_eq!(game.inputs().first(), Some(&(0, Input::Ghost)));
    // Never ranked: the pieces were known.
    let race = game.replay();
    let won = Some((
        minotty_engine::EndReason::Limit(minotty_engine::Stat::Lines),
        true,
    ));
    assert_eq!(
        minotty_domain::eligible(&race, game.stats(), won),
        Err(minotty_domain::Unranked::Ghost)
    );
    // The name went through the text policy.
    let s = screen(&a);
    assert!(
        s.contains("GHOST bob[31m") || s.contains("GHOST bob"),
        "{s}"
    );
    assert!(!s.contains('\u{1b}'));
}

#[test]
fn the_ghost_beside_the_board_at_80x24_and_wider() {
    let (mut a, replay) = racing(crate::Settings::default());
    // Halfway through the ghost's game: it has lines, the player none.
    let half = replay.end / 2;
    a.tick(COUNTDOWN_MS + half);
    let s = screen(&a);
    let rows: Vec<&str> = s.lines().collect();
    let edge = "┌────────────────────┐";
    assert!(
        rows.iter()
            .any(|r| r.matches(edge).count() == 1 && r.contains("GHOST")),
        "the ghost's board, titled:\n{s}"
    );
    let ghost = crate::session::GhostSource {
        replay: Box::new(replay.clone()),
        player: String::new(),
        game: 0,
    };
    let run = minotty_engine::Ghost::new((*ghost.replay).clone()).expect("a ghost");
    let lines = run.lines_at(half);
    assert!(lines > 0);
    let want = format!("-{lines} lines");
    assert!(s.contains(&want), "the lines split {want}:\n{s}");
    assert!(s.contains("not ranked"), "{s}");
    // Two boards side by side: the player's and the ghost's, its stack drawn.
    let board_row = rows.iter().find(|r| r.matches('│').count() >= 4);
    assert!(board_row.is_some(), "{s}");
    // Wider: the same, both boards at the larger scale where they fit.
    let wide = lines_of(&draw(&a, 160, 50));
    assert!(
        wide.iter().any(|r| r.contains("GHOST")),
        "{}",
        wide.join("\n")
    );
    assert!(
        wide.iter().any(|r| r.contains(&want)),
        "{}",
        wide.join("\n")
    );
    // Never over the player's board, whatever the size (down to 1x1: nothing panics).
    for (w, h) in [(1, 1), (60, 24), (76, 24), (77, 24), (200, 60)] {
        let _ = draw(&a, w, h);
    }
}

#[test]
fn the_ghost_as_an_outline_on_the_board() {
    let settings = crate::Settings {
        ghost_view: GhostView::Outline,
        ..crate::Settings::default()
    };
    let (mut a, replay) = racing(settings);
    a.tick(COUNTDOWN_MS + replay.end / 2);
    let s = screen(&a);
    let edge = "┌────────────────────┐";
    assert_eq!(s.matches(edge).count(), 1, "one board only:\n{s}");
    let rows = board_rows(&a);
    assert!(
        rows.iter().any(|r| r.contains('░')),
        "the ghost's stack outlined:\n{}",
        rows.join("\n")
    );
    assert!(s.contains("GHOST bob"), "{s}");
}

#[test]
fn the_split_reads_as_a_person_says_it() {
    let split = |lines, time| GhostSplit { lines, time };
    let rows: [(GhostSplit, usize, &str, &str); 7] = [
        (split(0, None), 18, "even", ""),
        (
            split(3, Some((20, -1200))),
            18,
            "+3 lines",
            "-1.2 s at 20 lines",
        ),
        (split(1, Some((1, -50))), 18, "+1 line", "-0.0 s at 1 lines"),
        (
            split(-1, Some((10, 800))),
            18,
            "-1 line",
            "+0.8 s at 10 lines",
        ),
        (
            split(-2, Some((40, 12_345))),
            18,
            "-2 lines",
            "+12.3 s at 40",
        ),
        (
            split(-2, Some((40, 12_345))),
            24,
            "-2 lines",
            "+12.3 s at 40 lines",
        ),
        (split(4, None), 18, "+4 lines", ""),
    ];
    for (i, (s, width, lines, time)) in rows.into_iter().enumerate() {
        assert_eq!(lines_text(&s).as_str(), lines, "row {i}");
        assert_eq!(time_text(&s, width).as_str(), time, "row {i}");
    }
}

#[test]
fn one_update_feeds_the_ghost_a_bounded_number_of_inputs() {
    let (mut a, replay) = racing(crate::Settings::default());
    assert!(
        replay.inputs.len() > 2 * GHOST_STEP_INPUTS,
        "a long recording"
    );
    // The whole game in one tick: the ghost takes it in bounded steps, asking to be woken at
    // once until it has caught up.
    let end = COUNTDOWN_MS + replay.end;
    a.tick(end);
    let mut ticks = 1;
    while a.next_wakeup().is_some_and(|w| w <= end) && ticks < 100 {
        a.tick(end);
        ticks += 1;
    }
    let run = a.ghost_run().expect("racing");
    let (fed, most) = run.fed();
    assert!(
        most <= GHOST_STEP_INPUTS,
        "at most {GHOST_STEP_INPUTS} a step: {most}"
    );
    assert_eq!(fed, replay.inputs.len() as u64, "all of it, in the end");
    assert!(ticks >= replay.inputs.len().div_ceil(GHOST_STEP_INPUTS));
    assert!(run.ghost().finished());
    assert_eq!(run.ghost().game().stats().lines, 40);
}

#[test]
fn a_ghost_that_cannot_be_raced_is_said_plainly() {
    let mut a = registered();
    menu_item(&mut a, 0);
    press(&mut a, Key::Char('g'), 0);
    a.deliver(
        Response::GhostFailed {
            message: "no 40 lines best to race yet: finish one first".into(),
        },
        0,
    );
    assert!(!a.in_game());
    assert!(
        said(&a).contains("no 40 lines best to race yet: finish one first"),
        "{}",
        screen(&a)
    );
    // A marathon replay is no ghost.
    press(&mut a, Key::Char('g'), 0);
    let mut marathon = best_replay();
    marathon.mode = Mode::marathon();
    a.deliver(
        Response::Ghost {
            game: 1,
            player: "bob".into(),
            replay: Box::new(marathon),
        },
        0,
    );
    assert!(!a.in_game());
    assert!(
        said(&a).contains("ghosts race only in 40 lines and ultra"),
        "{}",
        screen(&a)
    );
    // An answer nobody waits for any more starts nothing.
    press(&mut a, Key::Esc, 0);
    a.deliver(
        Response::Ghost {
            game: 1,
            player: "bob".into(),
            replay: Box::new(best_replay()),
        },
        0,
    );
    assert!(!a.in_game());
}

/// The screen's words in order, one space between (a note wraps).
fn said(a: &App) -> String {
    let s = screen(a).replace('│', " ");
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn g_on_a_leaderboard_entry_races_it() {
    let mut a = registered();
    menu_item(&mut a, 2);
    a.take_requests();
    let row = minotty_protocol::BoardRow {
        rank: 1,
        name: "bob".into(),
        values: vec!["1:13.226".into(), "1.40".into()],
        achieved_at: 1_763_769_600_000,
        game: Some(77),
    };
    a.deliver(
        Response::Leaderboard(minotty_protocol::LeaderboardPage {
            board: minotty_protocol::BoardId::Solo(ModeKind::Sprint),
            ruleset: RulesetId::Standard,
            period: minotty_protocol::BoardPeriod::AllTime,
            offset: 0,
            total: 1,
            columns: vec!["Time".into(), "PPS".into()],
            rows: vec![row],
            own: None,
        }),
        0,
    );
    assert!(screen(&a).contains("G race it"), "{}", screen(&a));
    press(&mut a, Key::Char('g'), 0);
    assert_eq!(a.take_requests(), [Request::Ghost(GhostWanted::Game(77))]);
    assert!(screen(&a).contains("Loading the ghost"), "{}", screen(&a));
    a.deliver(
        Response::Ghost {
            game: 77,
            player: "bob".into(),
            replay: Box::new(best_replay()),
        },
        0,
    );
    assert!(a.in_game());
    a.tick(COUNTDOWN_MS + 5_000);
    assert!(screen(&a).contains("GHOST bob"), "{}", screen(&a));
}

fn lines_of(buf: &ratatui::buffer::Buffer) -> Vec<String> {
    crate::testutil::lines(buf)
}

/// F on 40 lines asks whose best to race: only a name's characters are typed (an escape
/// sequence or a space is dropped, the length stops at a name's), Backspace edits, Esc
/// cancels, Enter asks for that player's best; an unknown name is said plainly.
#[test]
fn f_on_40_lines_races_a_friends_best_by_name() {
    let mut a = registered();
    menu_item(&mut a, 0);
    assert!(
        screen(&a).contains("F race a friend's best"),
        "{}",
        screen(&a)
    );
    press(&mut a, Key::Char('f'), 0);
    assert!(screen(&a).contains("Race whose best? _"), "{}", screen(&a));
    press(&mut a, Key::Esc, 0);
    assert!(!screen(&a).contains("Race whose best?"), "{}", screen(&a));
    assert!(
        screen(&a).contains("F race a friend's best"),
        "Esc closed the prompt, not the mode select: {}",
        screen(&a)
    );
    press(&mut a, Key::Char('F'), 0);
    for c in "bo\u{1b}[31mx b".chars() {
        press(&mut a, Key::Char(c), 0);
    }
    assert!(
        screen(&a).contains("Race whose best? bo31mxb_"),
        "{}",
        screen(&a)
    );
    for _ in 0..5 {
        press(&mut a, Key::Backspace, 0);
    }
    press(&mut a, Key::Char('b'), 0);
    for _ in 0..40 {
        press(&mut a, Key::Char('z'), 0);
    }
    let typed = format!(
        "bob{}",
        "z".repeat(minotty_domain::player_name::MAX_LEN - 3)
    );
    assert!(screen(&a).contains(&format!("{typed}_")), "{}", screen(&a));
    a.take_requests();
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::Ghost(GhostWanted::Player {
            name: typed.clone(),
            mode: ModeKind::Sprint,
            ruleset: RulesetId::Standard,
        })]
    );
    assert!(screen(&a).contains("best to race"), "{}", screen(&a));
    a.deliver(
        Response::GhostFailed {
            message: "no such player".into(),
        },
        0,
    );
    assert!(screen(&a).contains("no such player"), "{}", screen(&a));
    // Enter on an empty prompt asks for nothing.
    press(&mut a, Key::Char('f'), 0);
    press(&mut a, Key::Enter, 0);
    assert!(a.take_requests().is_empty());
}

/// The results of a ghost race say how it ended against the ghost: the time at the player's
/// last line (ahead or behind), or the lines when no time compares; the ghost's name as the
/// race sanitized it.
#[test]
fn the_results_of_a_ghost_race_show_the_split_at_its_end() {
    use crate::screens::results::{OnlineNote, ResultsView};
    use ratatui::widgets::Widget;
    let mut game = Game::new(GameConfig::default(), 21);
    minotty_bots::autoplay(&mut game, 400, 150);
    let keys = crate::keymap::Keymap::default();
    let draw = |ghost: Option<(&str, GhostSplit)>| {
        let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 80, 24));
        ResultsView {
            web: None,
            game: &game,
            cursor: 0,
            theme: crate::theme::Theme::new(&crate::Settings::default()),
            online: OnlineNote::None,
            finesse: None,
            keys: &keys,
            ghost,
            taken_over: None,
        }
        .render(buf.area, &mut buf);
        lines_of(&buf).join("\n")
    };
    let ahead = GhostSplit {
        lines: 0,
        time: Some((40, -1_200)),
    };
    let text = draw(Some(("bob", ahead)));
    assert!(
        text.contains("vs bob's ghost: -1.2 s at 40 lines"),
        "{text}"
    );
    let behind = GhostSplit {
        lines: -3,
        time: None,
    };
    let text = draw(Some(("bob", behind)));
    assert!(text.contains("vs bob's ghost: -3 lines"), "{text}");
    assert!(!draw(None).contains("ghost"));
}
