//! App-level tests: screens drawn into a TestBackend and read line by line, driven only through
//! the public contract (keys, ticks, renders). Helpers here; tests in `screens.rs` and
//! `play.rs`.

mod account;
mod autopause;
mod bot;
mod charts;
mod classic_survival;
mod clock;
mod descent;
mod dialogs;
mod doctor;
mod farewell;
mod finesse;
mod frames_online;
mod frames_solo;
mod frames_versus;
mod frames_versus_wide;
mod ghost_race;
mod graphics;
mod guest;
mod help;
mod integrity;
mod keys_box;
mod leave;
mod live;
mod looks;
mod match_replays;
mod open_rooms;
mod play;
mod polish;
mod puzzle;
mod reconnect;
mod records;
mod renderers;
mod replay_study;
mod retry;
mod retry_key;
mod rulesets;
mod scaling;
mod screens;
mod settings;
mod snapshots;
mod text_policy;
mod undo;
mod unranked_note;
mod unreachable;
mod versus;
mod versus_game_settings;
mod versus_out;
mod versus_screens;
mod versus_settings;
mod versus_teams;
mod web_links;
mod wide_names;

use minotty_engine::ModeKind;
use minotty_protocol::Identity;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use crate::session::COUNTDOWN_MS;
use crate::testutil::lines;
use crate::{App, AppContext, Key, KeyEvent, KeyKind, Mods};

pub(super) fn app() -> App {
    App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        ..AppContext::default()
    })
}

/// ada's App (seed 7) as `identity`.
pub(super) fn app_as(identity: Identity) -> App {
    App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        identity,
        ..AppContext::default()
    })
}

/// ada's App (seed 7) as the registered player ada, without a password.
pub(super) fn registered() -> App {
    app_as(Identity::Registered {
        name: "ada".into(),
        has_password: false,
    })
}

/// How many pauses the solo game in play has in its replay.
pub(super) fn pauses(a: &App) -> usize {
    a.game().map_or(0, |g| {
        g.inputs()
            .iter()
            .filter(|(_, i)| *i == minotty_engine::Input::Pause)
            .count()
    })
}

/// The solo game's own clock (0 with no game).
pub(super) fn game_ms(a: &App) -> u64 {
    a.game().map_or(0, minotty_engine::Game::now)
}

/// From the main menu, down `n` items and Enter: the main menu item `n` (0-based), chosen.
pub(super) fn menu_item(a: &mut App, n: usize) {
    for _ in 0..n {
        press(a, Key::Down, 0);
    }
    press(a, Key::Enter, 0);
}

/// The first seed below 1000 whose first piece in a `mode` game is an I.
pub(super) fn i_first_seed(mode: minotty_engine::Mode) -> u32 {
    (0..1000)
        .find(|&seed| {
            let config = minotty_engine::GameConfig {
                mode: mode.clone(),
                ..minotty_engine::GameConfig::default()
            };
            let mut g = minotty_engine::Game::new(config, seed);
            g.update(0, None);
            g.active()
                .is_some_and(|p| p.placed.piece == minotty_engine::Piece::I)
        })
        .expect("a seed")
}

/// Four garbage rows at the bottom open in column 5 (an upright I there clears them all), and
/// one cell above them, so that the clear is not a perfect clear.
pub(super) fn tetris_well() -> minotty_engine::board::Board {
    use minotty_engine::Cell;
    use minotty_engine::board::{Board, HEIGHT};
    let mut board = Board::new();
    board.set(0, HEIGHT - 5, Cell::Garbage);
    for y in HEIGHT - 4..HEIGHT {
        for x in (0..10).filter(|&x| x != 5) {
            board.set(x, y, Cell::Garbage);
        }
    }
    board
}

pub(super) fn draw(app: &App, w: u16, h: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    terminal.draw(|f| app.render(f)).expect("draw");
    terminal.backend().buffer().clone()
}

pub(super) fn screen(app: &App) -> String {
    lines(&draw(app, 80, 24)).join("\n")
}

pub(super) fn press(app: &mut App, key: Key, now: u64) {
    app.handle_key(KeyEvent::press(key), now);
}

pub(super) fn release(app: &mut App, key: Key, now: u64) {
    app.handle_key(
        KeyEvent {
            kind: KeyKind::Release,
            ..KeyEvent::press(key)
        },
        now,
    );
}

pub(super) fn tap(app: &mut App, key: Key, now: u64) {
    press(app, key, now);
    release(app, key, now);
}

pub(super) fn ctrl(c: char) -> KeyEvent {
    KeyEvent {
        key: Key::Char(c),
        mods: Mods {
            ctrl: true,
            ..Mods::default()
        },
        kind: KeyKind::Press,
    }
}

/// An App in a running game of `kind`, just after the countdown (front-end time returned).
pub(super) fn playing(kind: ModeKind) -> (App, u64) {
    let mut a = app();
    a.play(kind, 0);
    a.tick(COUNTDOWN_MS);
    (a, COUNTDOWN_MS)
}

/// The board's rows as drawn (inside the frame), top to bottom, from an 80 x 24 frame.
pub(super) fn board_rows(app: &App) -> Vec<String> {
    let buf = draw(app, 80, 24);
    let rows = lines(&buf);
    let edge = "┌────────────────────┐";
    let Some(top) = rows.iter().position(|r| r.contains(edge)) else {
        return Vec::new();
    };
    let byte = rows[top].find(edge).unwrap_or(0);
    let x = rows[top][..byte].chars().count() + 1;
    rows[top + 1..top + 21]
        .iter()
        .map(|r| r.chars().skip(x).take(20).collect())
        .collect()
}

/// Follows the App's wakeups up to `until`, ticking at each; returns them.
pub(super) fn wakeups(app: &mut App, until: u64) -> Vec<u64> {
    let mut seen = Vec::new();
    while let Some(w) = app.next_wakeup().filter(|&w| w <= until) {
        app.tick(w);
        seen.push(w);
        assert!(
            seen.len() < 10_000,
            "wakeups do not advance: {:?}",
            &seen[..10]
        );
    }
    seen
}

pub(super) fn piece_x(app: &App) -> i8 {
    app.game()
        .and_then(|g| g.active())
        .map_or(-99, |a| a.placed.x)
}
