//! The one text policy on screen: whatever another player, another instance or an operator's
//! bot chose to call itself, what is drawn passes the allowlist (`minotty_domain::text`), and so
//! does every other string a room view carries.

use minotty_domain::text::{is_allowed_name_char, sanitize_display};
use minotty_engine::Mode;
use minotty_engine::versus::MatchKind;

use super::*;
use crate::Response;
use minotty_protocol::{
    BoardSnapshot, Identity, MatchResult, MatchStart, OpponentView, Progress, ResultRow, RoomLimit,
    RoomSettings, RoomState, RoomView, SeatView,
};

/// What a hostile name hides: bidi overrides and isolates, zero-width joiners and spaces, an
/// escape sequence and a C1 CSI, private-use characters, a tag character, a variation
/// selector, an invisible Hangul filler, a bell.
const HOSTILE: &[char] = &[
    '\u{202E}',
    '\u{2066}',
    '\u{200D}',
    '\u{200B}',
    '\u{1b}',
    '\u{9b}',
    '\u{E000}',
    '\u{F8FF}',
    '\u{10FFFD}',
    '\u{E0041}',
    '\u{FE0F}',
    '\u{3164}',
    '\u{7}',
];

/// `visible` with every hostile character around and between its letters.
fn hostile(visible: &str) -> String {
    let mut s = String::from("\u{202E}\u{1b}[2J\u{E000}");
    for (i, c) in visible.chars().enumerate() {
        s.push(c);
        s.push(HOSTILE[i % HOSTILE.len()]);
    }
    s.push_str("\u{2069}\u{F8FF}\u{200D}");
    s
}

/// Every character drawn is one the allowlist lets through (or a space).
fn assert_clean(screen: &str) {
    for line in screen.lines() {
        for c in line.chars() {
            assert!(
                c == ' ' || is_allowed_name_char(c, false, 0),
                "{c:?} (U+{:04X}) drawn in {line:?}",
                u32::from(c)
            );
        }
    }
}

fn online() -> App {
    App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        identity: Identity::Guest,
        ..AppContext::default()
    })
}

fn text(app: &App, w: u16, h: u16) -> String {
    lines(&draw(app, w, h)).join("\n")
}

fn seat(name: &str, host: bool, bot: Option<u8>) -> SeatView {
    SeatView {
        team: None,
        name: name.into(),
        ready: true,
        host,
        connected: true,
        rating: None,
        bot,
    }
}

#[test]
fn the_ui_cleaners_are_the_allowlist() {
    for raw in [
        hostile("evil"),
        hostile("Bot minotty v1.0"),
        hostile("K7PQ3M"),
    ] {
        assert_eq!(
            crate::sanitize(&raw),
            sanitize_display(&raw, crate::text::MAX_NAME_CHARS)
        );
        for c in crate::sanitize(&raw).chars() {
            assert!(!HOSTILE.contains(&c), "{c:?} kept of {raw:?}");
        }
    }
}

#[test]
fn a_room_view_with_hostile_strings_is_drawn_clean() {
    let mut a = online();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    let view = RoomView {
        code: hostile("K7PQ3M"),
        options: RoomSettings::new(MatchKind::Battle, 4, RoomLimit::None),
        seats: vec![
            seat("ada", true, None),
            seat(&hostile("mallory"), false, None),
            seat(&format!("Bot {}", hostile("tbp")), false, Some(0)),
        ],
        spectators: 2,
        you: Some(0),
        host: true,
        state: RoomState::Lobby,
        ranked: false,
        listed: false,
        tbp_bots: vec![hostile("evilbot")],
    };
    a.deliver(Response::Room(view), 0);
    // Past the seven levels: the operator's bot by the name the room view gave.
    for _ in 0..5 {
        press(&mut a, Key::Char('+'), 0);
    }
    let s = text(&a, 100, 30);
    assert!(s.contains("mallory") && s.contains("Bot [2Jtbp"), "{s}");
    assert!(s.contains("evilbot"), "{s}");
    assert_clean(&s);
    a.deliver(
        Response::Notice {
            message: hostile("the server says hello"),
        },
        10,
    );
    let s = text(&a, 100, 30);
    assert!(s.contains("hello"), "{s}");
    assert_clean(&s);
}

#[test]
fn a_bot_name_with_hostile_characters_is_drawn_clean_in_a_match_and_its_results() {
    let mut a = online();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    let bot = format!("Bot {}", hostile("tbp"));
    a.deliver(
        Response::MatchStart(MatchStart {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            mode: Mode::custom(1, false, None),
            seed: 6,
            players: vec!["ada".into(), bot.clone()],
            you: Some(0),
            countdown_ms: 3000,
            ranked: false,
            game: Default::default(),
        }),
        0,
    );
    a.tick(3000);
    a.deliver(
        Response::Opponents(vec![OpponentView {
            seat: 1,
            name: bot.clone(),
            board: BoardSnapshot {
                rows: vec![[0u8; 10]; 20],
            },
            progress: Progress::default(),
            alive: true,
            place: None,
            kos: 0,
            target: Some(0),
        }]),
        3100,
    );
    let s = text(&a, 100, 30);
    assert!(s.contains("Bot [2Jtbp"), "{s}");
    assert_clean(&s);
    let row = |seat: usize, name: &str, place: u8| ResultRow {
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
        time_ms: 0,
        pieces: 0,
    };
    a.deliver(
        Response::MatchOver(MatchResult {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            rows: vec![row(1, &bot, 1), row(0, "ada", 2)],
            you: Some(0),
            ranked: false,
            series: None,
        }),
        3200,
    );
    let s = text(&a, 100, 30);
    assert!(s.contains("Bot [2Jtbp"), "{s}");
    assert_clean(&s);
}
