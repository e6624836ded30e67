//! The Live screen as a player meets it: the list (from the main menu), watching a solo game,
//! a match handed to the spectator path, the TV changing channel, at 80x24 and 200x60.

use minotty_engine::versus::MatchKind;
use minotty_engine::{ModeKind, RulesetId};

use super::*;
use crate::app::live::{LIST_EVERY_MS, TV_ENDED_HOLD_MS, TV_SWITCH_MS};
use crate::{Request, Response};
use minotty_protocol::{
    BoardSnapshot, LiveEntry, LiveFrame, LiveKind, LiveMatchFrame, LiveStats, OpponentView,
    Progress,
};

pub(super) fn solo(id: u64, name: &str, score: u64) -> LiveEntry {
    LiveEntry {
        id,
        kind: LiveKind::Solo,
        players: vec![name.into()],
        mode: ModeKind::Marathon,
        ruleset: RulesetId::Standard,
        stats: LiveStats {
            score,
            lines: 12,
            level: 2,
            pieces: 40,
            time_ms: 61_500,
        },
        watchers: 1,
    }
}

pub(super) fn versus(id: u64) -> LiveEntry {
    LiveEntry {
        id,
        kind: LiveKind::Match {
            kind: MatchKind::Battle,
        },
        players: vec!["ann".into(), "bo".into()],
        mode: ModeKind::Custom,
        ruleset: RulesetId::Standard,
        stats: LiveStats::default(),
        watchers: 0,
    }
}

/// A board with the bottom `rows` rows of garbage (a hole in the last column) and a T on top.
fn frame(id: u64, name: &str, rows: usize, score: u64) -> LiveFrame {
    let mut board = vec![[0u8; 10]; 20];
    for row in board.iter_mut().rev().take(rows) {
        *row = [8, 8, 8, 8, 8, 8, 8, 8, 8, 0];
    }
    board[0][4] = 3;
    board[1][3] = 3;
    board[1][4] = 3;
    board[1][5] = 3;
    LiveFrame {
        id,
        player: name.into(),
        mode: ModeKind::Marathon,
        ruleset: RulesetId::Standard,
        board: BoardSnapshot { rows: board },
        stats: LiveStats {
            score,
            lines: 7,
            level: 1,
            pieces: 30,
            time_ms: 30_000,
        },
        next: vec![1, 2, 3],
        hold: 7,
    }
}

fn opponent(seat: usize, name: &str, rows: usize, alive: bool) -> OpponentView {
    let mut board = vec![[0u8; 10]; 20];
    for row in board.iter_mut().rev().take(rows) {
        *row = [8, 8, 8, 8, 8, 8, 8, 8, 0, 8];
    }
    OpponentView {
        seat,
        name: name.into(),
        board: BoardSnapshot { rows: board },
        progress: Progress {
            attack_sent: 4,
            ..Progress::default()
        },
        alive,
        place: None,
        kos: 0,
        target: None,
    }
}

fn match_frame(id: u64) -> LiveMatchFrame {
    LiveMatchFrame {
        id,
        kind: MatchKind::Battle,
        boards: vec![opponent(0, "ann", 3, true), opponent(1, "bo", 9, false)],
    }
}

/// The main menu's Live item (index 6).
fn open_live(a: &mut App) {
    for _ in 0..6 {
        press(a, Key::Down, 0);
    }
    assert!(screen(a).contains("Live"));
    press(a, Key::Enter, 0);
}

fn text(a: &App, w: u16, h: u16) -> String {
    crate::testutil::lines(&draw(a, w, h)).join("\n")
}

#[test]
fn the_live_screen_lists_what_is_played_and_asks_again() {
    let mut a = app();
    open_live(&mut a);
    assert_eq!(a.take_requests(), [Request::LiveList]);
    assert!(screen(&a).contains("Looking..."), "{}", screen(&a));
    a.deliver(Response::Live(vec![]), 10);
    assert!(screen(&a).contains("Nobody is playing right now"));
    a.deliver(
        Response::Live(vec![
            versus(3),
            solo(1, "zoe", 123_456),
            solo(2, "\u{1b}[2Jbad", 99),
        ]),
        20,
    );
    let s = screen(&a);
    let lines: Vec<&str> = s.lines().collect();
    let at = |needle: &str| lines.iter().position(|l| l.contains(needle));
    // In the server's order, one line each, the numbers of solo games formatted.
    let (m, z, b) = (
        at("ann vs bo").unwrap(),
        at("zoe").unwrap(),
        at("[2Jbad").unwrap(),
    );
    assert!(m < z && z < b, "{s}");
    assert!(
        lines[m].contains("Versus · battle") && lines[m].contains("2 players"),
        "{s}"
    );
    assert!(lines[z].contains("Marathon · standard"), "{s}");
    assert!(
        lines[z].contains("123,456")
            && lines[z].contains("12 lines")
            && lines[z].contains("1:01.5"),
        "{s}"
    );
    assert!(!s.contains('\u{1b}'), "names are sanitized");
    assert!(s.contains("Enter watch   t TV   Esc back"));
    // The list is asked for again every LIST_EVERY_MS while it shows, not sooner.
    assert_eq!(a.next_wakeup(), Some(LIST_EVERY_MS));
    a.tick(LIST_EVERY_MS - 1);
    assert!(a.take_requests().is_empty());
    a.tick(LIST_EVERY_MS);
    assert_eq!(a.take_requests(), [Request::LiveList]);
    // Esc: back to the main menu; the list is no longer asked for.
    press(&mut a, Key::Esc, LIST_EVERY_MS);
    assert!(screen(&a).contains("M I N O T T Y"));
    a.tick(10 * LIST_EVERY_MS);
    assert!(a.take_requests().is_empty());
}

#[test]
fn enter_watches_a_solo_game_read_only() {
    let mut a = app();
    open_live(&mut a);
    a.take_requests();
    a.deliver(Response::Live(vec![versus(3), solo(1, "zoe", 500)]), 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    assert_eq!(a.take_requests(), [Request::WatchLive { id: 1 }]);
    assert!(a.watching_live());
    assert!(screen(&a).contains("Tuning in..."));
    // A frame of another game (a late one) is ignored; this game's is drawn full size.
    a.deliver(Response::LiveFrame(Box::new(frame(9, "other", 0, 1))), 10);
    assert!(!screen(&a).contains("other"));
    a.deliver(Response::LiveFrame(Box::new(frame(1, "zoe", 3, 4_321))), 10);
    let s = screen(&a);
    assert!(s.contains("WATCHING: zoe · Marathon · standard"), "{s}");
    assert!(
        s.contains("4,321") && s.contains("0:30.0") && s.contains("1.00"),
        "{s}"
    );
    assert!(
        s.contains("I O T") && s.contains("Hold") && s.contains('L'),
        "{s}"
    );
    // Three rows of garbage at the bottom of the board, each with its hole.
    let rows: Vec<&str> = s.lines().filter(|l| l.matches("██").count() >= 9).collect();
    assert_eq!(rows.len(), 3, "{s}");
    // The player's game keys do nothing here: it is read only.
    for key in [Key::Char(' '), Key::Left, Key::Up, Key::Char('z')] {
        press(&mut a, key, 20);
    }
    assert!(a.take_requests().is_empty());
    // The game ends: its last frame stays, marked.
    a.deliver(Response::LiveEnded { id: 1 }, 30);
    assert!(screen(&a).contains("(game over)"));
    // Esc: back to the list, watching stops.
    press(&mut a, Key::Esc, 40);
    assert_eq!(
        a.take_requests(),
        [Request::StopWatching, Request::LiveList]
    );
    assert!(screen(&a).contains("Being played now"));
    assert!(!a.watching_live());
}

#[test]
fn enter_on_a_match_spectates_it_by_its_live_id() {
    let mut a = app();
    open_live(&mut a);
    a.take_requests();
    a.deliver(Response::Live(vec![versus(3)]), 0);
    assert!(screen(&a).contains("2 players"), "{}", screen(&a));
    press(&mut a, Key::Enter, 0);
    assert_eq!(a.take_requests(), [Request::SpectateLive { id: 3 }]);
    assert!(screen(&a).contains("Joining the room as a spectator"));
    // The server seats the spectator and tells no code: the room shows none.
    let room = minotty_protocol::RoomView {
        code: String::new(),
        options: minotty_protocol::RoomSettings::new(
            MatchKind::Battle,
            2,
            minotty_protocol::RoomLimit::None,
        ),
        seats: Vec::new(),
        spectators: 1,
        you: None,
        host: false,
        state: minotty_protocol::RoomState::Lobby,
        ranked: false,
        listed: false,
        tbp_bots: Vec::new(),
    };
    a.deliver(Response::Room(room.clone()), 10);
    let s = screen(&a);
    assert!(s.contains("Watching a match from the Live list"), "{s}");
    assert!(!s.contains("join"), "{s}");
    // Out, and into another match from the list: its room is shown, not taken for a late
    // update of the one left.
    press(&mut a, Key::Esc, 20);
    assert!(a.take_requests().contains(&Request::LeaveRoom));
    a.deliver(
        Response::RoomClosed {
            message: "You stopped watching the match.".into(),
        },
        30,
    );
    // Back in the main menu, its cursor still on Live.
    press(&mut a, Key::Esc, 40);
    press(&mut a, Key::Enter, 45);
    assert!(screen(&a).contains("Being played now"), "{}", screen(&a));
    a.deliver(Response::Live(vec![versus(4)]), 50);
    press(&mut a, Key::Enter, 60);
    assert!(a.take_requests().contains(&Request::SpectateLive { id: 4 }));
    a.deliver(Response::Room(room), 70);
    assert!(
        screen(&a).contains("Watching a match from the Live list"),
        "{}",
        screen(&a)
    );
}

#[test]
fn the_tv_shows_the_best_game_and_changes_channel() {
    let mut a = App::new(AppContext {
        player_name: "ada".into(),
        open_tv: true,
        ..AppContext::default()
    });
    assert!(a.watching_live());
    assert_eq!(a.take_requests(), [Request::LiveList]);
    assert!(screen(&a).contains("LIVE TV: tuning in..."));
    a.deliver(Response::Live(vec![]), 0);
    assert!(screen(&a).contains("LIVE TV: nothing on right now"));
    // A match leads the list: the TV shows it, every player's board.
    a.deliver(
        Response::Live(vec![versus(3), solo(1, "zoe", 900), solo(2, "yan", 800)]),
        100,
    );
    assert_eq!(a.take_requests(), [Request::WatchLive { id: 3 }]);
    a.deliver(Response::LiveMatchFrame(Box::new(match_frame(3))), 150);
    let s = screen(&a);
    assert!(s.contains("LIVE TV: ann vs bo · Versus battle"), "{s}");
    // Two boards, each with its hold and next beside it (as a spectator of the room sees).
    assert_eq!(s.matches("┌── HOLD ──┐").count(), 2, "two boards: {s}");
    assert_eq!(s.matches("┌── NEXT ──┐").count(), 2, "two boards: {s}");
    assert!(s.contains(" ann ") && s.contains(" bo "), "{s}");
    assert!(s.contains("sent 4") && s.contains("KO"), "{s}");
    // Eight players do not fit full size at 80x24: half-block minis.
    let mut eight = match_frame(3);
    eight.boards = (0..8)
        .map(|i| opponent(i, &format!("pl{i}"), 5, true))
        .collect();
    a.deliver(Response::LiveMatchFrame(Box::new(eight)), 160);
    let s = screen(&a);
    assert!(s.contains("pl0") && s.contains("pl5"), "{s}");
    assert!(text(&a, 200, 60).contains("pl7"));
    // The match ends: its last boards stay TV_ENDED_HOLD_MS, then the next game is on.
    a.deliver(Response::LiveEnded { id: 3 }, 1_000);
    assert!(screen(&a).contains("(match over)"));
    assert!(a.next_wakeup().unwrap() <= 1_000 + TV_ENDED_HOLD_MS);
    a.tick(1_000 + TV_ENDED_HOLD_MS - 1);
    assert!(!a.take_requests().contains(&Request::WatchLive { id: 1 }));
    a.tick(1_000 + TV_ENDED_HOLD_MS);
    assert!(a.take_requests().contains(&Request::WatchLive { id: 1 }));
    a.deliver(
        Response::LiveFrame(Box::new(frame(1, "zoe", 1, 900))),
        4_100,
    );
    let s = screen(&a);
    assert!(s.contains("LIVE TV: zoe · Marathon · standard"), "{s}");
    assert!(s.contains("n next game   Esc list"), "{s}");
    // Another game takes the lead: the TV stays TV_SWITCH_MS on the one it shows first.
    let since = 1_000 + TV_ENDED_HOLD_MS;
    a.deliver(
        Response::Live(vec![solo(5, "ace", 5_000), solo(1, "zoe", 900)]),
        since + 10,
    );
    assert!(!a.take_requests().contains(&Request::WatchLive { id: 5 }));
    a.tick(since + TV_SWITCH_MS);
    assert!(a.take_requests().contains(&Request::WatchLive { id: 5 }));
    // n: the next game of the list now.
    press(&mut a, Key::Char('n'), since + TV_SWITCH_MS + 1);
    assert_eq!(a.take_requests(), [Request::WatchLive { id: 1 }]);
    // Esc: the list.
    press(&mut a, Key::Esc, since + TV_SWITCH_MS + 2);
    assert!(screen(&a).contains("Being played now"));
    // t from the list: the TV again.
    a.take_requests();
    press(&mut a, Key::Char('t'), since + TV_SWITCH_MS + 3);
    assert!(a.take_requests().contains(&Request::WatchLive { id: 5 }));
}

#[test]
fn live_screens_at_80x24_and_200x60_and_tiny() {
    let mut a = app();
    open_live(&mut a);
    a.deliver(
        Response::Live(
            (0..40)
                .map(|i| solo(i + 1, &format!("p{i}"), 1_000 - i))
                .collect(),
        ),
        0,
    );
    let small = text(&a, 80, 24);
    let big = text(&a, 200, 60);
    assert!(small.contains("p0") && small.contains("LIVE"), "{small}");
    // 80x24 shows the first rows, 200x60 (a box of 30 rows) more of them.
    assert!(!small.contains("p30"));
    assert!(big.contains("p20") && big.contains("1 watching"), "{big}");
    // The cursor scrolls the list.
    for _ in 0..30 {
        press(&mut a, Key::Down, 0);
    }
    assert!(text(&a, 80, 24).contains("p30"));
    // Watching, both sizes: the board is whole, the stats beside it.
    press(&mut a, Key::Enter, 0);
    a.deliver(Response::LiveFrame(Box::new(frame(31, "p30", 2, 77))), 0);
    for (w, h) in [(80, 24), (200, 60)] {
        let s = text(&a, w, h);
        assert!(s.contains("WATCHING: p30"), "{s}");
        assert_eq!(s.matches('┌').count(), 1, "{s}");
        assert!(s.contains("Score") && s.contains("77"), "{s}");
        assert!(s.contains("t TV   Esc list   q quit"), "{s}");
    }
    for (w, h) in [(1, 1), (10, 3), (59, 23), (60, 24)] {
        draw(&a, w, h);
    }
    press(&mut a, Key::Char('t'), 0);
    for (w, h) in [(1, 1), (30, 10), (80, 24), (200, 60)] {
        draw(&a, w, h);
    }
}

#[test]
fn a_streamed_tv_says_how_to_stop_not_which_keys() {
    let mut a = App::new(AppContext {
        tv_stream: true,
        ..AppContext::default()
    });
    a.deliver(Response::Live(vec![solo(4, "zoe", 10)]), 0);
    assert_eq!(
        a.take_requests(),
        [Request::LiveList, Request::WatchLive { id: 4 }]
    );
    a.deliver(Response::LiveFrame(Box::new(frame(4, "zoe", 0, 10))), 0);
    let s = screen(&a);
    assert!(s.contains("LIVE TV: zoe"), "{s}");
    assert!(s.contains("Ctrl+C ends") && !s.contains("Esc list"), "{s}");
}

#[test]
fn the_setting_says_whether_others_may_watch() {
    let mut a = app();
    assert!(a.settings().let_watch, "on by default");
    // Settings is the menu's fifth item; the row is the one above "Palette", eight above
    // "Back".
    for _ in 0..4 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    for _ in 0..11 {
        press(&mut a, Key::Up, 0);
    }
    let s = screen(&a);
    let row = s
        .lines()
        .find(|l| l.contains("Let others watch my games"))
        .unwrap();
    assert!(row.contains("< yes >"), "{s}");
    press(&mut a, Key::Enter, 0);
    assert!(!a.settings().let_watch);
    assert!(screen(&a).contains("< no >"));
    assert!(a.take_settings_changed());
}

#[test]
fn a_watched_game_whose_player_dropped_says_so_not_game_over() {
    let mut a = app();
    open_live(&mut a);
    a.deliver(Response::Live(vec![solo(1, "zoe", 500)]), 0);
    press(&mut a, Key::Enter, 0);
    a.take_requests();
    a.deliver(Response::LiveFrame(Box::new(frame(1, "zoe", 3, 4_321))), 10);
    // Another game's word is not this one's.
    a.deliver(Response::LiveParked { id: 9 }, 20);
    assert!(!screen(&a).contains("reconnecting"));
    a.deliver(Response::LiveParked { id: 1 }, 30);
    let got: Vec<String> = lines(&draw(&a, 80, 24))
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect();
    let s = got.join("\n");
    assert_eq!(
        got[0], " WATCHING: zoe · Marathon · standard  (player dropped: paused, reconnecting...)",
        "{s}"
    );
    assert!(!s.contains("game over"), "{s}");
    assert!(
        got.iter()
            .any(|l| l.contains("└") && l.contains("reconnecting...")),
        "the board's frame says it too:\n{s}"
    );
    // The player comes back and resumes it: it moves again, and no longer says
    // "reconnecting...", on the board's frame either.
    a.deliver(Response::LiveFrame(Box::new(frame(1, "zoe", 4, 4_400))), 35);
    let s = screen(&a);
    assert!(
        !s.contains("reconnecting") && !s.contains("game over"),
        "{s}"
    );
    assert!(s.contains("WATCHING: zoe"), "{s}");
    // Parked again and never taken back: it ended, it no longer waits.
    a.deliver(Response::LiveParked { id: 1 }, 36);
    a.deliver(Response::LiveEnded { id: 1 }, 37);
    let s = screen(&a);
    assert!(
        s.contains("(game over)") && !s.contains("reconnecting"),
        "{s}"
    );
    // Watching another game after it: that one is not said to be parked when it ends.
    press(&mut a, Key::Esc, 40);
    a.deliver(Response::Live(vec![solo(2, "yan", 500)]), 50);
    press(&mut a, Key::Enter, 50);
    a.deliver(Response::LiveFrame(Box::new(frame(2, "yan", 1, 10))), 60);
    a.deliver(Response::LiveEnded { id: 2 }, 70);
    let s = screen(&a);
    assert!(
        s.contains("(game over)") && !s.contains("reconnecting"),
        "{s}"
    );
}
