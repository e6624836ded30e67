//! The match replay viewer: every seat's game side by side, from `watch_match` (what
//! `ssh HOST replay mN` opens), the profile and the versus results; its frames at 80x24 and
//! wider, seeking, the work a tick and a seek cost, and seats without a verified replay.

use minotty_engine::versus::MatchKind;
use minotty_engine::{Button, Game, GameConfig, Input, Mode, Replay};
use minotty_protocol::{MatchRef, MatchReplay, MatchSeat, SeatFilm};

use super::*;
use crate::screens::match_replay::{MatchReplayScreen, SEEK_MS};
use crate::{Request, Response};

/// A real game on `seed`: `drops` hard drops, one a second (too few to top out).
fn played(seed: u32, drops: u64) -> Replay {
    let config = GameConfig {
        mode: Mode::custom(0, true, None),
        ..GameConfig::default()
    };
    let mut game = Game::new(config, seed);
    for i in 0..drops {
        game.update(1000 * i + 900, Some(Input::Press(Button::HardDrop)));
        game.update(1000 * i + 950, Some(Input::Release(Button::HardDrop)));
    }
    game.replay()
}

fn seat(name: &str, place: u32, film: SeatFilm) -> MatchSeat {
    MatchSeat {
        name: name.into(),
        place,
        forfeited: false,
        film,
    }
}

/// Match 7: ann (verified, 6 drops), bob (verified, 9), cid (no replay), dan (unverified).
fn match_7() -> MatchReplay {
    MatchReplay {
        id: 7,
        kind: MatchKind::Battle,
        ranked: false,
        ended_at: 0,
        seats: vec![
            seat("ann", 2, SeatFilm::Verified(Box::new(played(5, 6)))),
            seat("bob", 1, SeatFilm::Verified(Box::new(played(5, 9)))),
            seat("cid\u{1b}[2J", 4, SeatFilm::Missing),
            seat("dan", 3, SeatFilm::Unverified("of another seed".into())),
        ],
        settings: None,
    }
}

fn opened(m: MatchReplay) -> App {
    let mut a = registered();
    a.watch_match(m.id, 0);
    assert_eq!(
        a.take_requests(),
        [Request::MatchReplay {
            of: MatchRef::Id(m.id)
        }]
    );
    assert!(screen(&a).contains("Loading the match replay..."));
    a.deliver(
        Response::MatchReplay {
            of: MatchRef::Id(m.id),
            replay: Box::new(m),
        },
        0,
    );
    a
}

fn frame(a: &App, w: u16, h: u16) -> String {
    lines(&draw(a, w, h)).join("\n")
}

#[test]
fn every_board_shows_side_by_side_at_80x24_and_wider() {
    let mut a = opened(match_7());
    a.tick(3_000);
    let small = frame(&a, 80, 24);
    for want in [
        "MATCH REPLAY",
        "m7",
        "battle",
        "1x",
        "ann",
        "bob",
        "dan",
        "NO REPLAY",
        "UNVERIFIED",
        "0:03",
        "Esc back",
    ] {
        assert!(small.contains(want), "{want:?} missing:\n{small}");
    }
    // The name another player chose is drawn without its control sequence.
    assert!(!small.contains('\u{1b}'), "{small}");
    assert!(small.contains("cid[2J"), "{small}");
    // Wider: full boards, framed, with their place once a game is over.
    a.tick(20_000);
    let wide = frame(&a, 160, 48);
    assert!(wide.contains("FINISHED"), "{wide}");
    assert!(wide.contains("WINNER"), "{wide}");
    assert!(wide.contains("┌"), "{wide}");
    // Any size draws without panicking.
    for (w, h) in [(1, 1), (8, 4), (40, 10), (60, 24), (200, 60)] {
        draw(&a, w, h);
    }
}

#[test]
fn seeking_moves_every_board_and_a_key_costs_at_most_the_matchs_inputs() {
    let m = match_7();
    let inputs: u64 = m
        .seats
        .iter()
        .map(|s| match &s.film {
            SeatFilm::Verified(r) => r.inputs.len() as u64,
            _ => 0,
        })
        .sum();
    let mut s = MatchReplayScreen::new(&m, 0);
    assert_eq!(s.end(), played(5, 9).end);
    let start = s.work();
    // Forward: played on, not from the start; one view a played seat.
    s.seek(SEEK_MS);
    assert_eq!(s.position(), SEEK_MS);
    assert_eq!(s.work().restarts, start.restarts);
    assert!(s.work().boards - start.boards <= 2, "{:?}", s.work());
    let pieces_at_5s: Vec<u32> = s.views().iter().map(|v| v.progress.pieces).collect();
    assert!(
        pieces_at_5s[0] > 0 && pieces_at_5s[1] > 0,
        "{pieces_at_5s:?}"
    );
    // Back: every played seat from its start, once.
    s.seek(SEEK_MS / 2);
    assert_eq!(s.work().restarts - start.restarts, 2);
    let earlier: Vec<u32> = s.views().iter().map(|v| v.progress.pieces).collect();
    assert!(earlier[1] < pieces_at_5s[1], "{earlier:?} {pieces_at_5s:?}");
    // Past the end: the end; the same board as playing there at 1x.
    s.seek(u64::MAX / 4);
    assert!(s.finished());
    let mut straight = MatchReplayScreen::new(&m, 0);
    let mut now = 0;
    let mut ticks = 0u64;
    while !straight.finished() {
        let before = straight.work().boards;
        now = straight.wakeup().expect("plays on");
        straight.tick(now);
        ticks += 1;
        // A frame's work: at most one board view a seat.
        assert!(straight.work().boards - before <= 4);
    }
    assert_eq!(straight.views(), s.views());
    assert!(ticks <= inputs + s.end() / 1000 + 4, "{ticks} ticks");
    // Seats without a verified game keep their empty board.
    assert_eq!(s.views()[2].progress.pieces, 0);
    assert_eq!(s.views()[3].progress.pieces, 0);
    let _ = now;
}

#[test]
fn keys_seek_pause_and_go_back() {
    let mut a = opened(match_7());
    press(&mut a, Key::Right, 0);
    assert!(
        frame(&a, 80, 24).contains("0:05.0 / 0:08.9"),
        "{}",
        frame(&a, 80, 24)
    );
    press(&mut a, Key::Char(' '), 0);
    a.tick(4_000);
    let paused = frame(&a, 80, 24);
    assert!(
        paused.contains("0:05.0 /") && paused.contains("PAUSED"),
        "{paused}"
    );
    press(&mut a, Key::Left, 4_000);
    assert!(frame(&a, 80, 24).contains("0:00.0 /"));
    press(&mut a, Key::Char('+'), 4_000);
    assert!(frame(&a, 80, 24).contains("2x"));
    // Opened by `replay mN`: Esc goes to the menu.
    press(&mut a, Key::Esc, 4_000);
    assert!(!frame(&a, 80, 24).contains("MATCH REPLAY"));
}

#[test]
fn an_answer_for_another_match_is_not_taken_and_a_refusal_is_shown() {
    let mut a = registered();
    a.watch_match(8, 0);
    a.take_requests();
    a.deliver(
        Response::MatchReplay {
            of: MatchRef::Id(7),
            replay: Box::new(match_7()),
        },
        0,
    );
    assert!(screen(&a).contains("Loading the match replay..."));
    a.deliver(
        Response::Error {
            message: "no such match\u{1b}[2J".into(),
        },
        0,
    );
    let s = screen(&a);
    assert!(s.contains("no such match") && !s.contains('\u{1b}'), "{s}");
    press(&mut a, Key::Esc, 0);
    assert!(!screen(&a).contains("MATCH REPLAY"));
}

#[test]
fn more_seats_than_a_room_holds_are_dropped() {
    let mut m = match_7();
    let extra = m.seats[0].clone();
    m.seats.resize(20, extra);
    let s = MatchReplayScreen::new(&m, 0);
    assert_eq!(s.views().len(), minotty_protocol::MAX_MATCH_SEATS);
}

#[test]
fn v_on_the_results_watches_the_match_just_played_and_esc_comes_back() {
    use super::versus::{battle_mode, online, result_row, room, seat, start, versus_menu};
    use minotty_protocol::MatchResult;
    let mut a = online();
    versus_menu(&mut a);
    let seats = vec![seat("ada", true, true), seat("bob", true, false)];
    a.deliver(Response::Room(room(seats, Some(0), true)), 0);
    a.deliver(start(battle_mode(), 77, &["ada", "bob"], Some(0)), 0);
    a.tick(3000);
    a.deliver(
        Response::MatchOver(MatchResult {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            rows: vec![
                result_row(0, "ada", 1, (1500.0, 1512.0)),
                result_row(1, "bob", 2, (1500.0, 1488.0)),
            ],
            you: Some(0),
            ranked: false,
            series: None,
        }),
        9000,
    );
    a.take_requests();
    assert!(screen(&a).contains("v replay"), "{}", screen(&a));
    press(&mut a, Key::Char('v'), 10_000);
    assert_eq!(
        a.take_requests(),
        [Request::MatchReplay {
            of: MatchRef::Played {
                room: "K7PQ3M".into(),
                seed: 77
            }
        }]
    );
    assert!(screen(&a).contains("Loading the match replay..."));
    // Not stored yet: said so; Esc goes back to the results.
    a.deliver(
        Response::Error {
            message: "the match is not stored yet; try again in a moment".into(),
        },
        10_000,
    );
    assert!(screen(&a).contains("not stored yet"), "{}", screen(&a));
    press(&mut a, Key::Esc, 10_100);
    assert!(screen(&a).contains("You win!"), "{}", screen(&a));
}

/// The settings a match was played under, where they differ from the defaults, under the
/// title; none for a match of default settings.
#[test]
fn the_viewer_shows_the_settings_that_differ() {
    use minotty_engine::RulesetId;
    use minotty_engine::versus::SeriesSettings;
    use minotty_engine::versus::{GameDraft, GameSettings, RoomLimit, RoomSettings};
    let settings = RoomSettings::new(MatchKind::Battle, 4, RoomLimit::None)
        .with_series(SeriesSettings::new(1, 1, 2))
        .with_game(GameSettings::new(GameDraft {
            ruleset: RulesetId::Tetrs,
            ..GameDraft::DEFAULT
        }));
    let a = opened(MatchReplay {
        settings: Some(settings),
        ..match_7()
    });
    let f = frame(&a, 80, 24);
    assert!(f.contains("Stock 2 extra lives, Ruleset tetrs"), "{f}");
    let plain = opened(MatchReplay {
        settings: Some(RoomSettings::new(MatchKind::Battle, 4, RoomLimit::None)),
        ..match_7()
    });
    assert_eq!(frame(&plain, 80, 24), frame(&opened(match_7()), 80, 24));
}
