//! Versus: the menu, rooms, a match with garbage and reports, results; driven through the
//! public contract (keys, ticks, `deliver`, `take_requests`, renders).

use minotty_engine::versus::MatchKind;
use minotty_engine::{Game, Mode};
use minotty_protocol::RoomCommand;

use super::*;
use crate::{Request, Response};
use minotty_protocol::{
    BoardSnapshot, Identity, MatchResult, MatchStart, OpponentView, Progress, Report, ResultRow,
    RoomLimit, RoomSettings, RoomState, RoomView, SeatView,
};

pub(super) fn online() -> App {
    App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        identity: Identity::Guest,
        ..AppContext::default()
    })
}

pub(super) fn text(app: &App, w: u16, h: u16) -> String {
    lines(&draw(app, w, h)).join("\n")
}

/// From the main menu to the versus menu.
pub(super) fn versus_menu(a: &mut App) {
    press(a, Key::Down, 0);
    press(a, Key::Enter, 0);
    assert!(screen(a).contains("VERSUS"), "{}", screen(a));
}

pub(super) fn seat(name: &str, ready: bool, host: bool) -> SeatView {
    SeatView {
        team: None,
        name: name.into(),
        ready,
        host,
        connected: true,
        rating: Some(1500),
        bot: None,
    }
}

pub(super) fn room(seats: Vec<SeatView>, you: Option<usize>, host: bool) -> RoomView {
    RoomView {
        code: "K7PQ3M".into(),
        options: RoomSettings::new(MatchKind::Battle, 4, RoomLimit::None),
        seats,
        spectators: 1,
        you,
        host,
        state: RoomState::Lobby,
        ranked: false,
        listed: false,
        tbp_bots: Vec::new(),
    }
}

pub(super) fn start(mode: Mode, seed: u32, players: &[&str], you: Option<usize>) -> Response {
    Response::MatchStart(MatchStart {
        teams: Vec::new(),
        kind: MatchKind::Battle,
        mode,
        seed,
        players: players.iter().map(|p| p.to_string()).collect(),
        you,
        countdown_ms: 3000,
        ranked: false,
        game: Default::default(),
    })
}

pub(super) fn battle_mode() -> Mode {
    Mode::custom(1, false, None)
}

/// An App in a running 1v1 match (game time 0 at front-end time 3000).
pub(super) fn in_match_pub(seed: u32) -> App {
    in_match(seed)
}

fn in_match(seed: u32) -> App {
    let mut a = online();
    versus_menu(&mut a);
    a.deliver(start(battle_mode(), seed, &["ada", "bob"], Some(0)), 0);
    a.tick(3000);
    a.take_requests();
    a
}

fn reports(a: &mut App) -> Vec<Report> {
    a.take_requests()
        .into_iter()
        .flat_map(|r| match r {
            Request::Room(RoomCommand::Report { reports: list }) => list,
            _ => Vec::new(),
        })
        .collect()
}

pub(super) fn opponent(seat: usize, name: &str, alive: bool) -> OpponentView {
    let mut rows = vec![[0u8; 10]; 20];
    for row in rows.iter_mut().skip(16) {
        *row = [8, 8, 8, 8, 0, 8, 8, 8, 8, 8];
    }
    OpponentView {
        seat,
        name: name.into(),
        board: BoardSnapshot { rows },
        progress: Progress {
            lines: 7,
            attack_sent: 5,
            pending_garbage: 3,
            ..Progress::default()
        },
        alive,
        place: if alive { None } else { Some(3) },
        kos: 0,
        target: Some(0),
    }
}

#[test]
fn offline_versus_says_it_needs_the_server() {
    let mut a = app();
    versus_menu(&mut a);
    press(&mut a, Key::Enter, 0);
    assert!(screen(&a).contains("needs the server"), "{}", screen(&a));
    assert!(a.take_requests().is_empty());
    press(&mut a, Key::Esc, 0);
    assert!(screen(&a).contains("M I N O T T Y"));
}

#[test]
fn create_room_sends_the_chosen_options() {
    let mut a = online();
    versus_menu(&mut a);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    assert!(screen(&a).contains("CREATE ROOM"), "{}", screen(&a));
    press(&mut a, Key::Down, 0); // players
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Down, 0); // limit
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("< 40 lines >"), "{}", screen(&a));
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::CreateRoom(RoomSettings::new(
            MatchKind::Battle,
            4,
            RoomLimit::Lines(40)
        ))]
    );
    // The answer opens the lobby.
    a.deliver(
        Response::Room(room(vec![seat("ada", false, true)], Some(0), true)),
        0,
    );
    assert!(screen(&a).contains("ROOM K7PQ3M"));
}

#[test]
fn a_join_code_is_sent_upper_case_without_spaces() {
    let mut a = online();
    versus_menu(&mut a);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    for c in "k7 pq3m".chars() {
        press(&mut a, Key::Char(c), 0);
    }
    assert!(screen(&a).contains("K7PQ3M_"), "{}", screen(&a));
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::JoinRoom {
            code: "K7PQ3M".into(),
            spectate: false
        }]
    );
    a.deliver(
        Response::RoomFailed {
            message: "no room K7PQ3M".into(),
        },
        0,
    );
    assert!(screen(&a).contains("no room K7PQ3M"));
}

#[test]
fn watch_room_joins_as_spectator() {
    let mut a = online();
    versus_menu(&mut a);
    for _ in 0..3 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    for c in "ab2c".chars() {
        press(&mut a, Key::Char(c), 0);
    }
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::JoinRoom {
            code: "AB2C".into(),
            spectate: true
        }]
    );
}

/// An online App that asked for a quick match at 1000 ms and was queued at 1200 ms (rating
/// 1500, range 100).
fn queued() -> App {
    let mut a = online();
    versus_menu(&mut a);
    press(&mut a, Key::Enter, 1000);
    assert_eq!(a.take_requests(), [Request::QuickMatch]);
    a.deliver(
        Response::Queued {
            rating: 1500,
            range: 100,
            same_address: false,
        },
        1200,
    );
    a
}

#[test]
fn quick_match_queue_counts_up_and_cancels() {
    let mut a = queued();
    let s = screen(&a);
    assert!(
        s.contains("Looking for an opponent") && s.contains("0:00"),
        "{s}"
    );
    assert!(s.contains("1400 - 1600"), "{s}");
    assert_eq!(a.next_wakeup(), Some(2000));
    a.tick(66_000);
    assert!(a.take_dirty());
    assert!(screen(&a).contains("1:05"), "{}", screen(&a));
    press(&mut a, Key::Esc, 66_100);
    assert_eq!(a.take_requests(), [Request::CancelQuickMatch]);
    assert!(screen(&a).contains("Quick match"));
}

#[test]
fn the_lobby_shows_seats_and_r_toggles_ready() {
    let mut a = online();
    versus_menu(&mut a);
    a.deliver(
        Response::Room(room(vec![seat("ada", false, true)], Some(0), true)),
        0,
    );
    a.deliver(
        Response::Room(room(
            vec![seat("ada", false, true), seat("bob", true, false)],
            Some(0),
            true,
        )),
        0,
    );
    let s = screen(&a);
    for want in [
        "ROOM K7PQ3M",
        "join K7PQ3M",
        "ada",
        "bob",
        "host",
        "READY",
        "not ready",
        "1 watching",
        "1500",
    ] {
        assert!(s.contains(want), "{want}\n{s}");
    }
    // The code is drawn large, spaced out.
    assert!(s.contains("K 7 P Q"), "{s}");
    press(&mut a, Key::Char('r'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Ready { ready: true })]
    );
    // Hammered before the room answers: asked once; again only after a while.
    for _ in 0..1000 {
        press(&mut a, Key::Char('r'), 10);
    }
    assert!(a.take_requests().is_empty());
    press(&mut a, Key::Char('r'), 1500);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Ready { ready: true })]
    );
    press(&mut a, Key::Char('t'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Targeting {
            targeting: minotty_engine::versus::Targeting::Random
        })]
    );
    press(&mut a, Key::Enter, 0);
    assert_eq!(a.take_requests(), [Request::Room(RoomCommand::Start)]);
    // A guest who is not the host is told so; a host is told who is not ready.
    a.deliver(
        Response::Room(room(
            vec![seat("ada", true, true), seat("bob", false, false)],
            Some(0),
            true,
        )),
        0,
    );
    press(&mut a, Key::Char('s'), 0);
    assert!(a.take_requests().is_empty());
    assert!(screen(&a).contains("Not ready: bob"), "{}", screen(&a));
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Start)],
        "a second Enter starts anyway"
    );
    press(&mut a, Key::Esc, 0);
    assert_eq!(a.take_requests(), [Request::LeaveRoom]);
    assert!(screen(&a).contains("Quick match"));
}

pub(super) fn bot_seat(level: u8) -> SeatView {
    SeatView {
        team: None,
        name: format!("Bot level {level}"),
        ready: true,
        host: false,
        connected: true,
        rating: None,
        bot: Some(level),
    }
}

#[test]
fn the_host_adds_bots_of_a_chosen_level_and_removes_them() {
    let mut a = online();
    versus_menu(&mut a);
    a.deliver(
        Response::Room(room(vec![seat("ada", false, true)], Some(0), true)),
        0,
    );
    let s = screen(&a);
    assert!(s.contains("b add a bot (level 3, steady)"), "{s}");
    press(&mut a, Key::Char('b'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::AddBot { level: 3 })]
    );
    press(&mut a, Key::Char('+'), 0);
    press(&mut a, Key::Char('+'), 0);
    press(&mut a, Key::Char('-'), 0);
    press(&mut a, Key::Char('b'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::AddBot { level: 4 })]
    );
    for _ in 0..10 {
        press(&mut a, Key::Char('+'), 0);
    }
    press(&mut a, Key::Char('b'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::AddBot { level: 7 })],
        "7 at most"
    );
    a.deliver(
        Response::Room(room(
            vec![seat("ada", false, true), bot_seat(3), bot_seat(4)],
            Some(0),
            true,
        )),
        0,
    );
    let s = screen(&a);
    assert!(
        s.contains("Bot level 3") && s.contains("Bot level 4"),
        "{s}"
    );
    assert!(s.contains("x remove bot"), "{s}");
    // The last bot goes first.
    press(&mut a, Key::Char('x'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::RemoveBot { seat: 2 })]
    );
    // Two bots and the host fill four seats with bob: no more.
    a.deliver(
        Response::Room(room(
            vec![
                seat("ada", false, true),
                bot_seat(3),
                bot_seat(4),
                seat("bob", true, false),
            ],
            Some(0),
            true,
        )),
        0,
    );
    press(&mut a, Key::Char('b'), 0);
    assert!(a.take_requests().is_empty());
    assert!(screen(&a).contains("The room is full"), "{}", screen(&a));
    // Someone else's room: no bot keys.
    a.deliver(
        Response::Room(room(
            vec![seat("bob", false, true), seat("ada", false, false)],
            Some(1),
            false,
        )),
        0,
    );
    press(&mut a, Key::Char('b'), 0);
    press(&mut a, Key::Char('x'), 0);
    assert!(a.take_requests().is_empty());
    assert!(!screen(&a).contains("add a bot"), "{}", screen(&a));
}

#[test]
fn the_host_picks_the_servers_tbp_bots_by_name_after_the_levels() {
    let mut a = online();
    versus_menu(&mut a);
    let mut view = room(vec![seat("ada", false, true)], Some(0), true);
    view.tbp_bots = vec!["minotty".into(), "other".into()];
    a.deliver(Response::Room(view.clone()), 0);
    assert!(screen(&a).contains("b add a bot (level 3, steady)   +/- bot"));
    // Past level 7 come the TBP bots, in the server's order.
    for _ in 0..5 {
        press(&mut a, Key::Char('+'), 0);
    }
    let s = screen(&a);
    assert!(s.contains("b add a bot (minotty, TBP)"), "{s}");
    press(&mut a, Key::Char('b'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::AddTbpBot {
            name: "minotty".into()
        })]
    );
    for _ in 0..5 {
        press(&mut a, Key::Char('+'), 0);
    }
    press(&mut a, Key::Char('b'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::AddTbpBot {
            name: "other".into()
        })],
        "the last one at most"
    );
    press(&mut a, Key::Char('-'), 0);
    press(&mut a, Key::Char('-'), 0);
    press(&mut a, Key::Char('b'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::AddBot { level: 7 })]
    );
    // A TBP bot's seat is a bot's (level 0), and the host can take it out.
    let mut tbp_seat = bot_seat(0);
    tbp_seat.name = "Bot minotty".into();
    view.seats.push(tbp_seat);
    a.deliver(Response::Room(view), 0);
    let s = screen(&a);
    assert!(
        s.contains("Bot minotty") && s.contains("x remove bot"),
        "{s}"
    );
    press(&mut a, Key::Char('x'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::RemoveBot { seat: 1 })]
    );
}

#[test]
fn the_queue_offers_a_bot_match_that_can_be_declined_or_taken() {
    let mut a = queued();
    a.deliver(Response::BotOffer { level: 3 }, 21_000);
    let s = screen(&a);
    assert!(s.contains("Play a bot instead?"), "{s}");
    assert!(
        s.contains("Level 3 (steady)") && s.contains("unranked"),
        "{s}"
    );
    press(&mut a, Key::Char('n'), 21_500);
    assert_eq!(a.take_requests(), [Request::DeclineBotMatch]);
    let s = screen(&a);
    assert!(s.contains("Still looking for a person"), "{s}");
    assert!(
        s.contains("Looking for an opponent"),
        "still in the queue: {s}"
    );
    a.deliver(Response::BotOffer { level: 3 }, 41_000);
    press(&mut a, Key::Enter, 41_500);
    assert_eq!(a.take_requests(), [Request::AcceptBotMatch]);
    a.deliver(
        start(battle_mode(), 5, &["ada", "Bot level 3"], Some(0)),
        42_000,
    );
    assert!(screen(&a).contains("VERSUS · Battle"), "{}", screen(&a));
}

#[test]
fn a_match_counts_down_then_plays_and_reports() {
    let mut a = online();
    versus_menu(&mut a);
    a.deliver(start(battle_mode(), 5, &["ada", "bob"], Some(0)), 1000);
    assert!(a.in_game());
    let board_report = reports(&mut a)
        .iter()
        .any(|r| matches!(r, Report::Board(b) if b.rows.len() == 20));
    assert!(board_report, "the first board goes out at once");
    let s = text(&a, 60, 24);
    assert!(s.contains(" 3 "), "{s}");
    a.tick(2500);
    assert!(text(&a, 60, 24).contains(" 2 "));
    assert_eq!(a.versus_game().map(Game::now), Some(0));
    a.tick(4000 + 700);
    assert_eq!(a.versus_game().map(Game::now), Some(700));
    tap(&mut a, Key::Up, 4800);
    assert_eq!(a.versus_game().map(|g| g.stats().pieces), Some(1));
    let r = reports(&mut a);
    assert!(r.iter().any(|r| matches!(r, Report::Board(_))), "{r:?}");
    assert!(
        r.iter()
            .any(|r| matches!(r, Report::Progress(p) if p.pieces == 1)),
        "{r:?}"
    );
    // Piece movement alone is reported at most every 100 ms.
    tap(&mut a, Key::Left, 4810);
    tap(&mut a, Key::Right, 4820);
    let r = reports(&mut a);
    assert!(!r.iter().any(|r| matches!(r, Report::Board(_))), "{r:?}");
    assert!(a.next_wakeup().is_some_and(|w| w <= 4900));
    a.tick(4900);
    assert!(
        reports(&mut a)
            .iter()
            .any(|r| matches!(r, Report::Board(_)))
    );
}

#[test]
fn garbage_rises_after_the_delay() {
    let mut a = in_match(9);
    a.deliver(Response::Garbage { lines: 4, from: 1 }, 3100);
    let g = a.versus_game().map(|g| g.garbage().pending());
    assert_eq!(g, Some((0, 4)));
    let r = reports(&mut a);
    assert!(
        r.iter()
            .any(|r| matches!(r, Report::Progress(p) if p.pending_garbage == 4)),
        "{r:?}"
    );
    // The meter beside the board shows four lines waiting.
    let buf = draw(&a, 60, 24);
    let meter = (0..24)
        .filter(|&y| {
            (0..60).any(|x| {
                buf[(x, y)].symbol() == "█" && buf[(x, y)].fg == ratatui::style::Color::Indexed(214)
            })
        })
        .count();
    assert!(meter >= 4, "{}", lines(&buf).join("\n"));
    // The ruleset's delay (500 ms) passes; the next lock that clears nothing lets it rise.
    a.tick(3100 + 600);
    tap(&mut a, Key::Up, 3700);
    let game = a.versus_game().expect("game");
    assert_eq!(game.board().garbage_rows_at_bottom(), 4);
    assert_eq!(game.stats().garbage_received, 4);
    let board = reports(&mut a).into_iter().rev().find_map(|r| match r {
        Report::Board(b) => Some(b),
        _ => None,
    });
    let board = board.expect("a board report");
    assert!(
        board.rows[16..]
            .iter()
            .all(|row| row.iter().filter(|&&c| c == 8).count() == 9)
    );
}

#[test]
fn garbage_during_the_countdown_waits_for_the_start() {
    let mut a = online();
    versus_menu(&mut a);
    a.deliver(start(battle_mode(), 5, &["ada", "bob"], Some(0)), 0);
    a.deliver(Response::Garbage { lines: 2, from: 1 }, 1000);
    a.tick(3000);
    let g = a.versus_game().map(|g| g.garbage().pending());
    assert_eq!(g, Some((0, 2)));
}

#[test]
fn a_tetris_reports_its_attack() {
    let mut a = in_match(i_first_seed(battle_mode()));
    a.versus_game_mut().expect("game").set_board(tetris_well());
    tap(&mut a, Key::Char('x'), 3050); // rotate clockwise: the I stands in column 5
    tap(&mut a, Key::Up, 3060);
    let game = a.versus_game().expect("game");
    assert_eq!(game.stats().tetrises, 1);
    let r = reports(&mut a);
    assert!(r.contains(&Report::Attack { lines: 4 }), "{r:?}");
    assert!(text(&a, 60, 24).contains("TETRIS +4"));
}

#[test]
fn esc_in_a_match_asks_and_never_stops_the_clock() {
    let mut a = in_match(3);
    press(&mut a, Key::Esc, 3100);
    assert!(text(&a, 60, 24).contains("FORFEIT?"));
    a.tick(5100);
    assert_eq!(a.versus_game().map(Game::now), Some(2100));
    assert!(a.in_game());
    press(&mut a, Key::Char('n'), 5200);
    assert!(!text(&a, 60, 24).contains("FORFEIT?"));
    press(&mut a, Key::Esc, 5300);
    press(&mut a, Key::Char('y'), 5400);
    assert!(!a.in_game());
    let r = reports(&mut a);
    assert!(
        r.iter().any(|r| matches!(r, Report::Forfeited { .. })),
        "a forfeit is reported as such: {r:?}"
    );
    assert!(
        !r.iter().any(|r| matches!(r, Report::Finished { .. })),
        "{r:?}"
    );
    assert!(r.iter().any(|r| matches!(r, Report::Replay(_))), "{r:?}");
    assert!(text(&a, 60, 24).contains("FORFEITED"));
    // Finished goes out once.
    a.tick(9000);
    assert!(
        !reports(&mut a)
            .iter()
            .any(|r| matches!(r, Report::Finished { .. } | Report::Forfeited { .. }))
    );
}

#[test]
fn one_opponent_and_five_draw_at_60x24_and_120x40() {
    for n in [1usize, 5, 7] {
        let mut a = in_match(4);
        let names = ["bob", "eve", "kim", "lou", "max", "ned", "oz"];
        let list = (0..n).map(|i| opponent(i + 1, names[i], i != 2)).collect();
        a.deliver(Response::Opponents(list), 3100);
        for (w, h) in [(60, 24), (120, 40), (200, 60)] {
            let s = text(&a, w, h);
            for name in &names[..n] {
                assert!(s.contains(name), "{n} opponents at {w}x{h}: {name}\n{s}");
            }
            assert!(s.contains("ada"), "{s}");
            if n > 2 {
                assert!(s.contains("KO"), "{s}");
            }
            if n == 5 {
                assert!(s.contains("4 attacking you"), "{s}");
            }
        }
        if n == 1 {
            // At full size: the opponent's frame and its garbage rows.
            let s = text(&a, 60, 24);
            assert_eq!(s.matches("┌────────────────────┐").count(), 1, "{s}");
            assert!(s.contains("─ bob ─"), "{s}");
            assert!(s.contains("████████ ·████████"), "{s}");
        }
    }
}

#[test]
fn a_spectator_sees_both_boards() {
    let mut a = online();
    versus_menu(&mut a);
    a.deliver(start(battle_mode(), 5, &["bob", "eve"], None), 0);
    assert!(!a.in_game());
    a.deliver(
        Response::Opponents(vec![opponent(0, "bob", true), opponent(1, "eve", true)]),
        100,
    );
    let s = text(&a, 60, 24);
    assert!(
        s.contains("│  3   │"),
        "the countdown shows to spectators too\n{s}"
    );
    assert_eq!(a.next_wakeup(), Some(1000));
    a.tick(1000);
    assert!(a.take_dirty());
    assert!(text(&a, 60, 24).contains("│  2   │"));
    a.tick(3000);
    assert_eq!(a.next_wakeup(), None);
    let s = text(&a, 60, 24);
    assert!(!s.contains("│  1   │"), "{s}");
    assert!(s.matches('┌').count() >= 2, "{s}");
    assert!(
        s.contains("bob") && s.contains("eve") && s.contains("spectating"),
        "{s}"
    );
    assert_eq!(s.matches("████████ ·████████").count(), 8, "{s}");
    press(&mut a, Key::Esc, 200);
    assert_eq!(a.take_requests(), [Request::LeaveRoom]);
}

pub(super) fn result_row(seat: usize, name: &str, place: u8, rating: (f64, f64)) -> ResultRow {
    ResultRow {
        seat,
        name: name.into(),
        place,
        kos: 1,
        attack_per_minute: 42.5,
        pieces_per_second: 1.23,
        lines: 31,
        attack_sent: 17,
        garbage_received: 9,
        forfeited: place == 2,
        rating: Some(rating),
        time_ms: 60_000,
        pieces: 74,
    }
}

#[test]
fn results_show_numbers_rating_change_and_rematch() {
    let mut a = in_match(2);
    a.deliver(
        Response::MatchOver(MatchResult {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            rows: vec![
                result_row(0, "ada", 1, (1500.2, 1512.4)),
                result_row(1, "bob", 2, (1490.0, 1478.0)),
            ],
            you: Some(0),
            ranked: true,
            series: None,
        }),
        9000,
    );
    assert!(!a.in_game());
    let r = reports(&mut a);
    assert!(r.iter().any(|r| matches!(r, Report::Replay(_))), "{r:?}");
    for (w, h) in [(60, 24), (120, 40)] {
        let s = text(&a, w, h);
        for want in [
            "You win!",
            "APM",
            "PPS",
            "42.5",
            "1.23",
            "+12",
            "Rating 1500 → 1512",
            "left",
            "bob",
        ] {
            assert!(s.contains(want), "{want}\n{s}");
        }
    }
    // Keys hammered as the match ends choose nothing.
    press(&mut a, Key::Down, 9100);
    press(&mut a, Key::Enter, 9100);
    assert!(a.take_requests().is_empty());
    press(&mut a, Key::Enter, 9700);
    assert_eq!(a.take_requests(), [Request::Room(RoomCommand::Rematch)]);
    assert!(screen(&a).contains("Waiting for the others"));
    a.deliver(start(battle_mode(), 8, &["ada", "bob"], Some(0)), 9500);
    assert!(a.in_game());
}

#[test]
fn control_characters_in_names_are_not_drawn() {
    let mut a = in_match(6);
    a.deliver(
        Response::Opponents(vec![opponent(1, "b\u{1b}[31mo\u{7}b\u{202e}", true)]),
        3100,
    );
    let s = text(&a, 60, 24);
    assert!(s.contains("b[31mob"), "{s}");
    assert!(!s.chars().any(|c| c.is_control() && c != '\n'), "{s:?}");
    a.deliver(
        Response::Room(room(vec![seat("e\u{1b}ve\r", true, true)], None, false)),
        3200,
    );
    a.deliver(
        Response::MatchOver(MatchResult {
            teams: Vec::new(),
            kind: MatchKind::Race,
            rows: vec![result_row(1, "m\u{1b}[2Jax", 1, (1.0, 1.0))],
            you: None,
            ranked: false,
            series: None,
        }),
        3300,
    );
    let s = text(&a, 60, 24);
    assert!(s.contains("m[2Jax") && !s.contains('\u{1b}'), "{s}");
}

#[test]
fn a_notice_shows_on_any_screen_until_enter() {
    let mut a = online();
    a.deliver(
        Response::Notice {
            message: "Your match ended: bob won.".into(),
        },
        0,
    );
    assert!(screen(&a).contains("bob won"), "{}", screen(&a));
    press(&mut a, Key::Enter, 0);
    assert!(!screen(&a).contains("bob won"));
    // The Enter closed the notice only: still on the main menu.
    assert!(screen(&a).contains("M I N O T T Y"));
}

#[test]
fn room_closed_goes_back_to_the_menu_with_its_reason() {
    let mut a = online();
    versus_menu(&mut a);
    a.deliver(
        Response::Room(room(vec![seat("ada", false, true)], Some(0), true)),
        0,
    );
    a.deliver(
        Response::RoomClosed {
            message: "The room closed.".into(),
        },
        0,
    );
    let s = screen(&a);
    assert!(
        s.contains("The room closed.") && s.contains("Quick match"),
        "{s}"
    );
}

#[test]
fn late_updates_of_the_room_just_left_are_ignored_until_the_next_join() {
    let mut a = online();
    versus_menu(&mut a);
    let lobby = || Response::Room(room(vec![seat("ada", false, true)], Some(0), true));
    a.deliver(lobby(), 0);
    assert!(screen(&a).contains("ROOM K7PQ3M"), "{}", screen(&a));
    press(&mut a, Key::Esc, 0);
    assert_eq!(a.take_requests(), [Request::LeaveRoom]);
    // The room's update sent before it saw the leave arrives after it: the menu stays.
    a.deliver(lobby(), 10);
    let s = screen(&a);
    assert!(
        s.contains("Quick match") && !s.contains("ROOM K7PQ3M"),
        "{s}"
    );
    // Another room is not the one left.
    let mut other = room(vec![seat("bob", false, true)], None, false);
    other.code = "B2CD4F".into();
    a.deliver(Response::Room(other), 20);
    assert!(screen(&a).contains("ROOM B2CD4F"), "{}", screen(&a));
    press(&mut a, Key::Esc, 30);
    assert_eq!(a.take_requests(), [Request::LeaveRoom]);
    // Joining the first room again by its code: its updates count again.
    press(&mut a, Key::Down, 40);
    press(&mut a, Key::Down, 40);
    press(&mut a, Key::Enter, 40);
    for c in "K7PQ3M".chars() {
        press(&mut a, Key::Char(c), 40);
    }
    press(&mut a, Key::Enter, 40);
    assert!(matches!(
        a.take_requests().as_slice(),
        [Request::JoinRoom { code, spectate: false }] if code.as_str() == "K7PQ3M"
    ));
    a.deliver(lobby(), 50);
    assert!(screen(&a).contains("ROOM K7PQ3M"), "{}", screen(&a));
}

/// The guest ada's App, drawing with `graphics`.
fn guest_drawing(graphics: crate::Graphics) -> App {
    let settings = crate::Settings {
        graphics,
        ..crate::Settings::default()
    };
    App::with_settings(
        AppContext {
            player_name: "ada".into(),
            identity: Identity::Guest,
            ..AppContext::default()
        },
        settings,
    )
}

#[test]
fn ascii_graphics_draw_only_ascii_and_no_size_panics() {
    let mut a = guest_drawing(crate::Graphics::Ascii);
    let sizes = [
        (60, 24),
        (61, 25),
        (80, 24),
        (100, 30),
        (120, 40),
        (250, 70),
    ];
    let mut shots = Vec::new();
    versus_menu(&mut a);
    shots.push(text(&a, 60, 24));
    a.deliver(
        Response::Room(room(
            vec![seat("ada", true, true), seat("bob", false, false)],
            Some(0),
            true,
        )),
        0,
    );
    shots.push(text(&a, 60, 24));
    a.deliver(start(battle_mode(), 5, &["ada", "bob"], Some(0)), 0);
    a.tick(3000);
    a.deliver(Response::Garbage { lines: 30, from: 1 }, 3000);
    for n in 0..8 {
        let names = ["bob", "eve", "kim", "lou", "max", "ned", "oz", "pia"];
        let list = (0..n)
            .map(|i| opponent(i + 1, names[i], i % 2 == 0))
            .collect();
        a.deliver(Response::Opponents(list), 3100);
        for (w, h) in sizes {
            let s = text(&a, w, h);
            if (w, h) == (60, 24) {
                shots.push(s);
            }
        }
    }
    press(&mut a, Key::Esc, 3200);
    shots.push(text(&a, 60, 24));
    a.deliver(
        Response::MatchOver(MatchResult {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            rows: vec![
                result_row(1, "bob", 1, (1500.0, 1490.0)),
                result_row(0, "ada", 2, (1500.0, 1510.0)),
            ],
            you: Some(0),
            ranked: true,
            series: None,
        }),
        4000,
    );
    shots.push(text(&a, 60, 24));
    for s in shots {
        assert!(s.is_ascii(), "{s}");
    }
    // Spectating up to eight players at every size.
    let mut a = online();
    versus_menu(&mut a);
    a.deliver(start(battle_mode(), 5, &["bob", "eve"], None), 0);
    for n in 0..9 {
        let list = (0..n).map(|i| opponent(i, "pl", true)).collect();
        a.deliver(Response::Opponents(list), 100);
        for (w, h) in sizes {
            text(&a, w, h);
        }
    }
}

#[test]
fn a_time_limit_shows_the_time_left_and_a_line_goal_its_progress() {
    for (limit, want) in [
        (RoomLimit::Seconds(120), "LEFT  1:59.0"),
        (RoomLimit::Lines(20), "LINES   0/20"),
    ] {
        let mut a = online();
        versus_menu(&mut a);
        let mut r = room(
            vec![seat("ada", true, true), seat("bob", true, false)],
            Some(0),
            true,
        );
        r.options = RoomSettings::new(r.options.kind(), r.options.max_players(), limit);
        a.deliver(Response::Room(r), 0);
        a.deliver(start(battle_mode(), 5, &["ada", "bob"], Some(0)), 0);
        a.tick(4000);
        let s = text(&a, 60, 24);
        assert!(s.contains(want), "{want}\n{s}");
    }
}

#[test]
fn join_from_the_command_line_opens_the_lobby_or_says_why_not() {
    // `ssh HOST join K7PQ3M`: the server joins for the player, who is on the main menu.
    let mut a = online();
    a.deliver(
        Response::RoomFailed {
            message: "There is no room K7PQ3M.".into(),
        },
        0,
    );
    let s = screen(&a);
    assert!(
        s.contains("There is no room K7PQ3M.") && s.contains("NOTICE"),
        "{s}"
    );
    press(&mut a, Key::Enter, 0);
    a.deliver(
        Response::Room(room(
            vec![seat("bob", false, true), seat("ada", false, false)],
            Some(1),
            false,
        )),
        0,
    );
    let s = screen(&a);
    assert!(s.contains("ROOM K7PQ3M") && s.contains("r ready"), "{s}");
    press(&mut a, Key::Char('r'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Ready { ready: true })]
    );
    press(&mut a, Key::Enter, 0);
    assert!(a.take_requests().is_empty());
    assert!(screen(&a).contains("Only the host"));
}

#[test]
fn a_match_never_pauses_itself_for_a_small_terminal() {
    let mut a = in_match(9);
    a.set_size(40, 12, 3_000);
    let before = a.versus_game().map(Game::now);
    a.tick(4_000);
    a.tick(5_000);
    assert!(a.in_game() && !a.game_paused());
    assert_eq!(before, Some(0));
    assert_eq!(
        a.versus_game().map(Game::now),
        Some(2_000),
        "the match goes on"
    );
    assert!(!a.versus_game().is_some_and(Game::paused));
}

#[test]
fn ctrl_s_takes_no_snapshot_in_versus() {
    let mut a = in_match(5);
    a.handle_key(ctrl('s'), 3100);
    assert!(
        !a.take_requests()
            .iter()
            .any(|r| matches!(r, Request::SaveSnapshot { .. })),
        "versus games are not snapshotted"
    );
}

#[test]
fn the_electronika_well_fits_the_versus_screen() {
    let mut a = guest_drawing(crate::Graphics::Electronika);
    versus_menu(&mut a);
    a.deliver(start(battle_mode(), 5, &["ada", "bob"], Some(0)), 0);
    a.tick(3000);
    a.deliver(Response::Garbage { lines: 3, from: 1 }, 3000);
    a.deliver(Response::Opponents(vec![opponent(1, "bob", true)]), 3100);
    // 1x at 60x24 and 80x24, 2x (a line two rows) at 200x60.
    for (w, h, times) in [(60, 24, 1), (80, 24, 1), (200, 60, 2)] {
        let s = text(&a, w, h);
        let rows: Vec<&str> = s.lines().collect();
        let well = format!("<!{}!>", "=".repeat(20 * times));
        let floor = rows
            .iter()
            .position(|r| r.contains(&well))
            .unwrap_or_else(|| panic!("{w}x{h}\n{s}"));
        // The well keeps its walls (its right one against the hold box); queued garbage shows in the
        // meter's column, over the well's left wall.
        let hold = rows.iter().find(|r| r.contains("HOLD")).expect("hold");
        assert!(hold.contains("!>+--"), "{w}x{h}: {hold}");
        let meter: Vec<&str> = rows[floor - 3 * times..floor]
            .iter()
            .map(|r| r.trim_start())
            .collect();
        assert!(meter.iter().all(|r| r.starts_with("#!")), "{w}x{h}\n{s}");
        assert!(
            rows[floor - 3 * times - 1].trim_start().starts_with("<!"),
            "{w}x{h}\n{s}"
        );
    }
}
