//! Exact frames of the versus match at 80x24 and 200x60 (issue 36): the clear text beside the
//! player's board (never over its spawn rows), the forfeit question beside the board while
//! the game goes on, a spectator's view of a rematch before anyone locked (the opening queue,
//! the clock running, the countdown over each board), the minis' names and statuses off their
//! rows at 80x24, and the boards scaled to 2x at 200x60. Every cell's symbol compared, lines
//! written without trailing spaces; fixed seeds and times.

use minotty_engine::Mode;
use minotty_engine::versus::MatchKind;

use super::frames_versus_wide::{MATCH_200, WATCH_200};
use super::versus::{battle_mode, online, opponent, start};
use super::*;
use crate::Response;
use minotty_protocol::{MatchStart, OpponentView};

/// The frame at `w` x `h`, lines without trailing spaces.
pub(super) fn frame(a: &App, w: u16, h: u16) -> Vec<String> {
    lines(&draw(a, w, h))
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// Asserts the frame at `w` x `h` line by line (all of it printed when it differs).
pub(super) fn assert_frame_at(a: &App, w: u16, h: u16, expected: &[&str]) {
    let got = frame(a, w, h);
    assert_eq!(got.len(), usize::from(h));
    if got != expected {
        let quoted: Vec<String> = got.iter().map(|l| format!("    {l:?},")).collect();
        panic!("{w}x{h} frame differs; it is:\n{}", quoted.join("\n"));
    }
}

fn to_versus_menu(a: &mut App) {
    press(a, Key::Down, 0);
    press(a, Key::Enter, 0);
}

/// ada and bob in a battle; ada has just dropped an I into a four-row well: TETRIS +4.
fn after_a_tetris() -> App {
    let mut a = online();
    to_versus_menu(&mut a);
    a.deliver(
        start(
            battle_mode(),
            i_first_seed(battle_mode()),
            &["ada", "bob"],
            Some(0),
        ),
        0,
    );
    a.tick(3000);
    a.deliver(Response::Opponents(vec![opponent(1, "bob", true)]), 3000);
    a.versus_game_mut().expect("game").set_board(tetris_well());
    tap(&mut a, Key::Char('x'), 3050);
    tap(&mut a, Key::Up, 3060);
    assert_eq!(a.versus_game().map(|g| g.stats().tetrises), Some(1));
    // The rows cleared, the next piece spawned: the clear text still shows.
    a.tick(3600);
    a
}

#[test]
fn the_clear_text_stands_beside_the_board_not_over_its_spawn_rows() {
    let a = after_a_tetris();
    assert_frame_at(&a, 80, 24, CLEAR_80);
    assert_frame_at(&a, 200, 60, MATCH_200);
}

#[test]
fn the_forfeit_question_leaves_the_board_in_view_and_the_game_goes_on() {
    let mut a = after_a_tetris();
    press(&mut a, Key::Esc, 3700);
    assert_frame_at(&a, 80, 24, FORFEIT_80);
    // A game key while it is asked moves the piece: the board shows it moved.
    let x = |a: &App| a.versus_game().and_then(|g| g.active()).map(|p| p.placed.x);
    let before = x(&a).expect("a piece");
    tap(&mut a, Key::Left, 3800);
    assert_eq!(x(&a), Some(before - 1));
    let s = frame(&a, 80, 24);
    assert!(s.iter().any(|l| l.contains("FORFEIT?")), "{s:#?}");
    assert_ne!(
        s[2],
        FORFEIT_80.get(2).copied().unwrap_or(""),
        "the spawn rows show the piece one column left"
    );
}

/// Race players as the server sends them at a rematch's start: empty boards, no numbers.
fn fresh(seat: usize, name: &str) -> OpponentView {
    OpponentView::at_start(seat, name.into())
}

/// A spectator of a rematch race between ann and bo, its start delivered at 10 s.
fn watching_a_rematch() -> App {
    let mut a = online();
    to_versus_menu(&mut a);
    let start = MatchStart {
        teams: Vec::new(),
        kind: MatchKind::Race,
        mode: Mode::sprint(),
        seed: 7,
        players: vec!["ann".into(), "bo".into()],
        you: None,
        countdown_ms: 3000,
        ranked: false,
        game: Default::default(),
    };
    a.deliver(Response::MatchStart(start), 10_000);
    a.deliver(
        Response::Opponents(vec![fresh(0, "ann"), fresh(1, "bo")]),
        10_100,
    );
    a
}

#[test]
fn a_spectator_of_a_rematch_sees_the_queue_and_the_clock_before_the_first_lock() {
    let mut a = watching_a_rematch();
    a.tick(11_000);
    // The countdown over each board, the opening queue in each NEXT box.
    assert_frame_at(&a, 80, 24, WATCH_COUNTDOWN_80);
    a.tick(15_500);
    let s = frame(&a, 80, 24);
    let times: Vec<&String> = s.iter().filter(|l| l.contains("TIME")).collect();
    assert!(
        times.iter().all(|l| l.matches("0:02.5").count() == 2),
        "{s:#?}"
    );
    assert_frame_at(&a, 200, 60, WATCH_200);
}

#[test]
fn eight_players_minis_keep_names_apart_and_labels_off_their_rows_at_80x24() {
    let mut a = online();
    to_versus_menu(&mut a);
    let bots: Vec<String> = (1..=7).map(|l| format!("Bot level {l}")).collect();
    let mut players: Vec<&str> = vec!["ada"];
    players.extend(bots.iter().map(String::as_str));
    a.deliver(start(battle_mode(), 5, &players, Some(0)), 0);
    a.tick(3000);
    let others: Vec<OpponentView> = bots
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut o = opponent(i + 1, name, i != 2);
            o.progress.attack_sent = 12;
            o
        })
        .collect();
    a.deliver(Response::Opponents(others), 3100);
    a.tick(4000);
    assert_frame_at(&a, 80, 24, MINIS_80);
}

const CLEAR_80: &[&str] = &[
    " VERSUS · Battle                                                            ada",
    "          ┌────────────────────┐ ┌── HOLD ──┐  ┌─────── bob ────────┐",
    "          │ · · · · ·██ · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · ·██████ · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ └──────────┘  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ ┌── NEXT ──┐  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │    ████  │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │  ████    │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │   ▀█▄    │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │   ▄█▄    │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ └──────────┘  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│               │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ TIME  0:00.6  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ LINES      4  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ SENT       4  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ RECV       0  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ APM    400.0  │████████ ·██████████│",
    "          │ · · · · · · · · · ·│ PPS     1.67 █│████████ ·██████████│",
    "          │ · · · · ·░░ · · · ·│ TETRIS +4    █│████████ ·██████████│",
    "          │██ · ·░░░░░░ · · · ·│              █│████████ ·██████████│",
    "          └────────────────────┘               └────── sent 5 ──────┘",
    "                           Esc forfeit   Ctrl+C quit",
];
const FORFEIT_80: &[&str] = &[
    " VERSUS · Battle                                                            ada",
    "          ┌────────────────────┐ ┌── HOLD ──┐  ┌─────── bob ────────┐",
    "          │ · · · · ·██ · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · ·██████ · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ └──────────┘  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ ┌── NEXT ──┐  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │    ████  │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │  ████    │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │   ▀█▄    │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │   ▄█▄    │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ └──────────┘  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ ┌ FORFEIT? ┐  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │Give up?  │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │y yes n no│  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │the game  │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │goes on   │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ └──────────┘  │████████ ·██████████│",
    "          │ · · · · · · · · · ·│              █│████████ ·██████████│",
    "          │ · · · · ·░░ · · · ·│              █│████████ ·██████████│",
    "          │██ · ·░░░░░░ · · · ·│              █│████████ ·██████████│",
    "          └────────────────────┘               └────── sent 5 ──────┘",
    "           FORFEIT?  y forfeit   n keep playing   (the game goes on)",
];
const WATCH_COUNTDOWN_80: &[&str] = &[
    " VERSUS · Race                                                       spectating",
    "    ┌─────── ann ────────┐ ┌── HOLD ──┐  ┌──────── bo ────────┐ ┌── HOLD ──┐",
    "    │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ └──────────┘  │ · · · · · · · · · ·│ └──────────┘",
    "    │ · · · · · · · · · ·│ ┌── NEXT ──┐  │ · · · · · · · · · ·│ ┌── NEXT ──┐",
    "    │ · · · · · · · · · ·│ │   ▄█▄    │  │ · · · · · · · · · ·│ │   ▄█▄    │",
    "    │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │   ▀▀▀▀   │  │ · · · · · · · · · ·│ │   ▀▀▀▀   │",
    "    │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│ │          │",
    "    │ · · ·┌──────┐ · · ·│ │   ▀█▄    │  │ · · ·┌──────┐ · · ·│ │   ▀█▄    │",
    "    │ · · ·│  2   │ · · ·│ │          │  │ · · ·│  2   │ · · ·│ │          │",
    "    │ · · ·└──────┘ · · ·│ │   ▄▄█    │  │ · · ·└──────┘ · · ·│ │   ▄▄█    │",
    "    │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │   █▄▄    │  │ · · · · · · · · · ·│ │   █▄▄    │",
    "    │ · · · · · · · · · ·│ └──────────┘  │ · · · · · · · · · ·│ └──────────┘",
    "    │ · · · · · · · · · ·│               │ · · · · · · · · · ·│",
    "    │ · · · · · · · · · ·│ TIME  0:00.0  │ · · · · · · · · · ·│ TIME  0:00.0",
    "    │ · · · · · · · · · ·│ LINES   0/40  │ · · · · · · · · · ·│ LINES   0/40",
    "    │ · · · · · · · · · ·│ PIECES     0  │ · · · · · · · · · ·│ PIECES     0",
    "    │ · · · · · · · · · ·│ PPS     0.00  │ · · · · · · · · · ·│ PPS     0.00",
    "    │ · · · · · · · · · ·│               │ · · · · · · · · · ·│",
    "    └─────── 0/40 ───────┘               └─────── 0/40 ───────┘",
    "                              Watching   Esc leave",
];
const MINIS_80: &[&str] = &[
    " VERSUS · Battle                6 attacking you                             ada",
    "  ┌────────────────────┐ ┌── HOLD ──┐ Bot 1   Bot 2   Bot 3   Bot 4   Bot 5",
    "  │ · · · · · · · · · ·│ │          │  ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀",
    "  │ · · ·████ · · · · ·│ │          │  ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀",
    "  │ · · · ·████ · · · ·│ └──────────┘  ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀",
    "  │ · · · · · · · · · ·│ ┌── NEXT ──┐  ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀",
    "  │ · · · · · · · · · ·│ │      ██  │ ▆⣿⣿⢸⣿⣿  ▆⣿⣿⢸⣿⣿  ▆⣿⣿⢸⣿⣿  ▆⣿⣿⢸⣿⣿  ▆⣿⣿⢸⣿⣿",
    "  │ · · · · · · · · · ·│ │  ██████  │ sent 12 sent 12   KO #3 sent 12 sent 12",
    "  │ · · · · · · · · · ·│ │          │ Bot 6   Bot 7",
    "  │ · · · · · · · · · ·│ │    ██    │  ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀",
    "  │ · · · · · · · · · ·│ │          │  ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀",
    "  │ · · · · · · · · · ·│ │   █▄▄    │  ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀",
    "  │ · · · · · · · · · ·│ └──────────┘  ⠀⠀⠀⠀⠀   ⠀⠀⠀⠀⠀",
    "  │ · · · · · · · · · ·│              ▆⣿⣿⢸⣿⣿  ▆⣿⣿⢸⣿⣿",
    "  │ · · · · · · · · · ·│ TIME  0:01.0 sent 12 sent 12",
    "  │ · · · · · · · · · ·│ LINES      0",
    "  │ · · · · · · · · · ·│ SENT       0",
    "  │ · · · · · · · · · ·│ RECV       0",
    "  │ · · · · · · · · · ·│ APM      0.0",
    "  │ · · · · · · · · · ·│ PPS     0.00",
    "  │ · · ·░░░░ · · · · ·│",
    "  │ · · · ·░░░░ · · · ·│",
    "  └────────────────────┘",
    "                           Esc forfeit   Ctrl+C quit",
];

#[test]
fn the_quick_match_layout_stays_put_when_the_boards_arrive() {
    let mut a = online();
    to_versus_menu(&mut a);
    a.deliver(start(battle_mode(), 5, &["ada", "bob"], Some(0)), 0);
    // The countdown, before the room has sent any board; then GO with bob's board.
    a.tick(2000);
    let before = frame(&a, 80, 24);
    a.deliver(Response::Opponents(vec![opponent(1, "bob", true)]), 3000);
    a.tick(3100);
    let after = frame(&a, 80, 24);
    // ada's board, hold and bob's frame in the same columns both times.
    for row in [1, 23] {
        assert_eq!(before[row], after[row], "{before:#?}\n{after:#?}");
    }
    assert!(before[1].contains("── bob ──"), "{before:#?}");
}

#[test]
fn the_profiles_columns_are_cut_short_of_the_next() {
    use minotty_protocol::{RecentGame, RecentMatch};
    let mut a = registered();
    for _ in 0..3 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    let mut p = super::records::ada_profile();
    p.recent = vec![RecentGame {
        game: 20,
        outcome: "combo broken".into(),
        ..p.recent[0].clone()
    }];
    p.matches = vec![RecentMatch {
        result: "won vs abcdefghijklmnop".into(),
        outcome: "+14 rating, a long one".into(),
        ..p.matches[0].clone()
    }];
    a.deliver(Response::Profile(p), 0);
    let s = frame(&a, 80, 24);
    let game = s.iter().find(|l| l.contains("#20")).expect("the game");
    assert!(game.contains("combo broken  #20"), "{game}");
    let m = s.iter().find(|l| l.contains("m12")).expect("the match");
    assert!(m.contains("won vs abcdefghij +14 rating, a m12"), "{m}");
}

#[test]
fn a_spectators_opening_queue_is_the_players_own() {
    use crate::screens::versus_match::Match;
    let mode = Mode::sprint();
    let seed = 7;
    let start = MatchStart {
        teams: Vec::new(),
        kind: MatchKind::Race,
        mode: mode.clone(),
        seed,
        players: vec!["ada".into(), "bo".into()],
        you: None,
        countdown_ms: 3000,
        ranked: false,
        game: Default::default(),
    };
    let watched = Match {
        start: start.clone(),
        started_at: 0,
        limit: minotty_protocol::RoomLimit::None,
        session: None,
        opponents: Vec::new(),
        forfeit_prompt: false,
        last_board: None,
        board_due: false,
        finished_sent: false,
    };
    let mut a = online();
    to_versus_menu(&mut a);
    let playing = MatchStart {
        you: Some(0),
        ..start
    };
    a.deliver(Response::MatchStart(playing), 0);
    let own: Vec<u8> = a
        .versus_game()
        .expect("a game")
        .preview()
        .take(5)
        .map(|p| p as u8 + 1)
        .collect();
    assert_eq!(watched.opening_next().to_vec(), own);
    assert!(own.iter().all(|&p| p > 0));
}
