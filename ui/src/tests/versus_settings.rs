//! A room's settings screen: the host changes rows and applies them (one `Settings`
//! command); everyone else sees them read-only; the results show a series' running score.

use minotty_engine::versus::presets::PRESETS;
use minotty_engine::versus::{MatchKind, SeriesSettings};
use minotty_protocol::{MatchResult, RoomCommand, RoomLimit, RoomSettings, SeriesScore};

use super::versus::{online, room, seat};
use super::*;
use crate::{Request, Response};

fn in_lobby(host: bool) -> App {
    let mut a = online();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    let seats = vec![seat("ada", false, true), seat("bob", false, false)];
    a.deliver(
        Response::Room(room(seats, Some(if host { 0 } else { 1 }), host)),
        0,
    );
    a
}

#[test]
fn the_host_changes_the_series_and_applies_it() {
    let mut a = in_lobby(true);
    assert!(screen(&a).contains("One game"), "{}", screen(&a));
    press(&mut a, Key::Char('o'), 0);
    let s = screen(&a);
    for want in [
        "SETTINGS",
        "Preset",
        "First to",
        "Win by",
        "Stock",
        "Enter apply",
    ] {
        assert!(s.contains(want), "{want}\n{s}");
    }
    // Down to "First to" (row 4), two steps right: first to 3; then stock up once.
    for _ in 0..4 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("< 3 games >"), "{}", screen(&a));
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Right, 0);
    assert!(a.take_requests().is_empty(), "nothing sent before Enter");
    press(&mut a, Key::Enter, 0);
    let want = RoomSettings::new(MatchKind::Battle, 4, RoomLimit::None)
        .with_series(SeriesSettings::new(3, 1, 1));
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Settings { settings: want })]
    );
    // Back in the lobby.
    assert!(screen(&a).contains("ROOM K7PQ3M"), "{}", screen(&a));
}

#[test]
fn the_preset_row_cycles_through_the_presets() {
    let mut a = in_lobby(true);
    press(&mut a, Key::Char('o'), 0);
    // 4 seats, one game: no preset yet ("Custom"); right goes to the first one.
    assert!(screen(&a).contains("< Custom >"), "{}", screen(&a));
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("< Default >"), "{}", screen(&a));
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("< League >"), "{}", screen(&a));
    assert!(
        screen(&a).contains("first to 7, win by 1"),
        "{}",
        screen(&a)
    );
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Settings {
            settings: PRESETS[1].settings()
        })]
    );
}

#[test]
fn a_guest_sees_the_settings_read_only() {
    let mut a = in_lobby(false);
    press(&mut a, Key::Char('o'), 0);
    let s = screen(&a);
    assert!(s.contains("Only the host changes these"), "{s}");
    assert!(s.contains("First to"), "{s}");
    assert!(!s.contains('<'), "no cursor for a guest\n{s}");
    for key in [Key::Down, Key::Right, Key::Left, Key::Enter] {
        press(&mut a, key, 0);
    }
    assert!(a.take_requests().is_empty());
    press(&mut a, Key::Esc, 0);
    assert!(screen(&a).contains("ROOM K7PQ3M"), "{}", screen(&a));
}

#[test]
fn the_results_show_the_series_score() {
    let mut a = in_lobby(false);
    let row = |seat: usize, name: &str, place: u8| minotty_protocol::ResultRow {
        seat,
        name: name.into(),
        place,
        kos: 0,
        attack_per_minute: 0.0,
        pieces_per_second: 0.0,
        lines: 0,
        attack_sent: 0,
        garbage_received: 0,
        forfeited: false,
        rating: None,
        time_ms: 1000,
        pieces: 1,
    };
    let result = |wins: Vec<u8>, games, over, winner| MatchResult {
        teams: Vec::new(),
        kind: MatchKind::Battle,
        rows: vec![row(1, "bob", 1), row(0, "ada", 2)],
        you: Some(1),
        ranked: false,
        series: Some(SeriesScore {
            wins,
            games,
            first_to: 3,
            win_by: 1,
            over,
            winner,
        }),
    };
    a.deliver(Response::MatchOver(result(vec![1, 2], 3, false, None)), 0);
    let s = screen(&a);
    assert!(
        s.contains("Series: ada 1 - bob 2 (game 3, first to 3)"),
        "{s}"
    );
    a.deliver(Response::MatchOver(result(vec![1, 3], 4, true, Some(1))), 0);
    let s = screen(&a);
    assert!(s.contains("bob wins the series!"), "{s}");
}

/// The garbage rows: the host scrolls to them at 80x24 (the cursor stays in view), changes the
/// multiplier and the spins, then the kind, and the one command carries all of it (changing
/// the kind keeps the garbage rules).
#[test]
fn the_host_changes_the_garbage_rules_and_the_rows_scroll_into_view() {
    use crate::screens::room_settings::ROWS;
    use minotty_engine::versus::{GarbageDraft, GarbageSettings, SpinBonus};
    let at = |label: &str| ROWS.iter().position(|r| r.label == label).expect(label);
    let mut a = in_lobby(true);
    press(&mut a, Key::Char('o'), 0);
    assert!(
        !screen(&a).contains("Spins"),
        "the last rows wait below\n{}",
        screen(&a)
    );
    for _ in 0..at("Garbage x") {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("< 110 % >"), "{}", screen(&a));
    for _ in at("Garbage x")..at("Spins") {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Right, 0);
    let s = screen(&a);
    assert!(
        s.contains("< all spins >"),
        "the cursor's row is in view\n{s}"
    );
    assert!(!s.contains("Preset"), "scrolled past the top\n{s}");
    // Back up to the kind (wrapping the other way would do too) and make it a race.
    for _ in at("Kind")..at("Spins") {
        press(&mut a, Key::Up, 0);
    }
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("Preset"), "{}", screen(&a));
    press(&mut a, Key::Enter, 0);
    let garbage = GarbageSettings::new(GarbageDraft {
        multiplier: 110,
        spins: SpinBonus::AllSpins,
        ..GarbageDraft::default()
    });
    let want = RoomSettings::new(MatchKind::Race, 4, RoomLimit::None).with_garbage(garbage);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Settings { settings: want })]
    );
}
