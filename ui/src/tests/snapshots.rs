//! Snapshots in the App: Ctrl+S in a solo game asks the front end to store one and says how it
//! went; the custom options list the stored ones and start a game from one.

use minotty_engine::{Game, GameConfig, Input, Mode, ModeKind, Piece, Snapshot, StartBoard};

use super::*;
use crate::app::SNAPSHOT_NOTICE_MS;
use crate::{Request, Response};
use minotty_protocol::SnapshotEntry;

fn text(app: &App, w: u16, h: u16) -> String {
    lines(&draw(app, w, h)).join("\n")
}

/// The snapshots the App asked to store, with their labels.
fn saved(a: &mut App) -> Vec<(String, Snapshot)> {
    a.take_requests()
        .into_iter()
        .filter_map(|r| match r {
            Request::SaveSnapshot { label, snapshot } => Some((label, *snapshot)),
            _ => None,
        })
        .collect()
}

#[test]
fn ctrl_s_after_a_hold_asks_to_store_the_snapshot_and_says_so() {
    let (mut a, now) = playing(ModeKind::Marathon);
    let first = a.game().and_then(|g| g.active()).map(|p| p.placed.piece);
    tap(&mut a, Key::Char('c'), now + 10); // hold
    let game = a.game().expect("game").clone();
    let inputs = game.inputs().len();
    a.handle_key(ctrl('s'), now + 20);
    let list = saved(&mut a);
    assert_eq!(list.len(), 1, "one request per Ctrl+S");
    let (label, s) = &list[0];
    assert!(label.starts_with("Marathon 0:00.0 0 lines"), "{label}");
    assert_eq!(s.hold(), first);
    assert!(s.hold_used());
    assert_eq!(
        s.active().map(|p| p.piece),
        game.active().map(|a| a.placed.piece)
    );
    assert_eq!(s.queue(), game.preview().collect::<Vec<_>>().as_slice());
    assert_eq!(
        a.game().map(|g| g.inputs().len()),
        Some(inputs),
        "Ctrl+S is no game button"
    );
    assert!(text(&a, 80, 24).contains("Saving snapshot..."));
    a.deliver(
        Response::SnapshotSaved {
            label: label.clone(),
        },
        now + 30,
    );
    for (w, h) in [(80, 24), (200, 60)] {
        let s = text(&a, w, h);
        assert!(s.contains("Snapshot saved"), "{w}x{h}\n{s}");
        assert!(s.contains("HOLD") && s.contains("NEXT"), "{s}");
    }
    // It goes away by itself: the App wakes up for it.
    assert!(
        a.next_wakeup()
            .is_some_and(|w| w <= now + 30 + SNAPSHOT_NOTICE_MS)
    );
    a.tick(now + 30 + SNAPSHOT_NOTICE_MS);
    let s = text(&a, 80, 24);
    assert!(
        !s.contains("Snapshot saved") && s.contains("Ctrl+S snapshot"),
        "{s}"
    );
}

#[test]
fn a_refusal_or_no_storage_shows_in_the_footer() {
    let (mut a, now) = playing(ModeKind::Sprint);
    a.handle_key(ctrl('s'), now + 10);
    assert_eq!(saved(&mut a).len(), 1);
    a.deliver(
        Response::SnapshotFailed {
            message: "at most 20\x1b[2J snapshots".into(),
        },
        now + 20,
    );
    let s = text(&a, 80, 24);
    assert!(s.contains("at most 20[2J snapshots"), "{s}");
    assert!(!s.contains('\x1b'));
    a.handle_key(ctrl('s'), now + 30);
    assert_eq!(saved(&mut a).len(), 1);
    a.deliver(Response::Offline, now + 40);
    assert!(text(&a, 80, 24).contains("Snapshots cannot be stored here"));
    // Offline with nothing waiting is not the snapshot's.
    a.deliver(Response::Offline, now + 50);
    assert!(text(&a, 80, 24).contains("Snapshots cannot be stored here"));
}

#[test]
fn the_help_lists_ctrl_s() {
    let mut a = app();
    for _ in 0..5 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    for (w, h) in [(80, 24), (200, 60)] {
        let s = text(&a, w, h);
        assert!(s.contains("HELP"), "{s}");
        assert!(
            s.contains("Snapshot and savepoint (solo; also in Custom)") && s.contains("Ctrl+S"),
            "{s}"
        );
        // The special keys show on the first page up to Ctrl+E (at 200x60 all of them and
        // the note after them).
        assert!(s.contains("Keep the game's seed for Custom"), "{s}");
        assert!(h < 60 || s.contains("Quit (asks first)"), "{s}");
        assert!(
            h < 60 || (s.contains("Menus") && s.contains("can be changed in")),
            "{s}"
        );
    }
}

/// A snapshot of a marathon game after a hold, a few locks and a shift.
fn stored() -> Snapshot {
    let mut g = Game::new(
        GameConfig {
            mode: Mode::marathon(),
            ..GameConfig::default()
        },
        31,
    );
    minotty_bots::autoplay(&mut g, 6, 200);
    let t = g.now() + 10;
    g.update(t, Some(Input::Press(minotty_engine::Button::Hold)));
    g.update(t + 5, Some(Input::Release(minotty_engine::Button::Hold)));
    g.snapshot().expect("snapshot")
}

fn entry(id: i64, label: &str, s: &Snapshot) -> SnapshotEntry {
    SnapshotEntry {
        id,
        label: label.into(),
        mode: ModeKind::Marathon,
        created_at: 0,
        snapshot: Box::new(s.clone()),
    }
}

/// From the main menu into the custom options (the App asks for the snapshots there).
fn custom_options(a: &mut App) {
    press(a, Key::Enter, 0);
    for _ in 0..6 {
        press(a, Key::Down, 0);
    }
    press(a, Key::Enter, 0);
    // The mode select asked for puzzle progress on the way.
    assert_eq!(
        a.take_requests(),
        [Request::PuzzleProgress, Request::ListSnapshots]
    );
}

#[test]
fn custom_starts_from_a_stored_snapshot() {
    let snap = stored();
    let mut a = app();
    custom_options(&mut a);
    let s = text(&a, 80, 24);
    assert!(!s.contains("Start from"), "no snapshot stored: no row\n{s}");
    a.deliver(
        Response::Snapshots(vec![
            entry(9, "Marathon 0:08.1 4 lines", &snap),
            entry(4, "Sprint\x07 0:01.0 0 lines", &stored()),
        ]),
        0,
    );
    // The focus stays on the ruleset, now the second row.
    let s = text(&a, 80, 24);
    assert!(
        s.contains("Start from") && s.contains("< standard >"),
        "{s}"
    );
    press(&mut a, Key::Up, 0);
    assert!(text(&a, 80, 24).contains("< empty >"));
    press(&mut a, Key::Right, 0);
    for (w, h) in [(80, 24), (200, 60)] {
        let s = text(&a, w, h);
        assert!(s.contains("Marathon 0:08.1 4 lines"), "{w}x{h}\n{s}");
        assert!(s.contains("Del delete snapshot"), "{s}");
    }
    press(&mut a, Key::Right, 0);
    assert!(
        text(&a, 80, 24).contains("Sprint 0:01.0"),
        "control character dropped"
    );
    press(&mut a, Key::Left, 0);
    press(&mut a, Key::Enter, 100);
    let game = a.game().expect("custom game");
    assert_eq!(game.mode().kind, ModeKind::Custom);
    assert!(matches!(game.mode().start_board, StartBoard::Snapshot(_)));
    assert_eq!(game.board(), snap.board());
    assert_eq!(game.hold_piece(), snap.hold());
    assert!(!game.can_hold(), "hold was used for this piece");
    assert_eq!(game.active().map(|a| a.placed), snap.active());
    assert_eq!(game.preview().collect::<Vec<Piece>>(), snap.queue());
    assert_eq!(game.stats().lines, snap.stats().lines);
    // The clock goes on from the snapshot's time once the countdown ends.
    a.tick(100 + crate::session::COUNTDOWN_MS + 500);
    assert_eq!(a.game().map(|g| g.now()), Some(snap.time() + 500));
    let s = text(&a, 80, 24);
    assert!(s.contains("HOLD") && s.contains("Custom"), "{s}");
    for (w, h) in [(200, 60), (30, 10), (1, 1)] {
        draw(&a, w, h);
    }
}

#[test]
fn del_on_start_from_asks_to_delete_and_a_list_without_it_goes_back_to_empty() {
    let snap = stored();
    let mut a = app();
    custom_options(&mut a);
    a.deliver(
        Response::Snapshots(vec![entry(9, "Ultra 0:09.9 1 line", &snap)]),
        0,
    );
    press(&mut a, Key::Up, 0);
    press(&mut a, Key::Right, 0);
    assert!(text(&a, 80, 24).contains("Ultra 0:09.9"));
    press(&mut a, Key::Delete, 0);
    assert_eq!(a.take_requests(), [Request::DeleteSnapshot { id: 9 }]);
    a.deliver(Response::Snapshots(Vec::new()), 0);
    let s = text(&a, 80, 24);
    assert!(
        !s.contains("Start from") && !s.contains("Ultra 0:09.9"),
        "{s}"
    );
    press(&mut a, Key::Enter, 0);
    let game = a.game().expect("custom game");
    assert!(matches!(game.mode().start_board, StartBoard::Empty));
}

/// A custom game from a 40 lines snapshot keeps 40 lines' goal (no limit chosen): it ends won
/// at 40 lines, counting those cleared before the snapshot, as the game it came from would.
#[test]
fn custom_from_a_40_lines_snapshot_keeps_the_goal() {
    let mut g = Game::new(
        GameConfig {
            mode: Mode::sprint(),
            ..GameConfig::default()
        },
        31,
    );
    minotty_bots::autoplay(&mut g, 12, 200);
    let snap = g.snapshot().expect("snapshot");
    assert_eq!(snap.mode(), ModeKind::Sprint);
    let mut a = app();
    custom_options(&mut a);
    a.deliver(
        Response::Snapshots(vec![entry(3, "40 Lines 0:05.0 2 lines", &snap)]),
        0,
    );
    press(&mut a, Key::Up, 0);
    press(&mut a, Key::Right, 0);
    let s = text(&a, 80, 24);
    assert!(
        s.contains("snapshot's"),
        "the limit row says whose goal:\n{s}"
    );
    press(&mut a, Key::Enter, 100);
    let game = a.game().expect("custom game");
    assert_eq!(game.mode().kind, ModeKind::Custom);
    assert_eq!(game.mode().limits, Mode::sprint().limits);
    assert_eq!(game.stats().lines, snap.stats().lines);
}
