//! Undo and the savepoint as a player uses them: Ctrl+Z puts the board, queue, hold and stats
//! back exactly, the clock goes on from there, the game stops ranking, and a savepoint comes
//! back as it was kept.

use minotty_engine::{ModeKind, RulesetId, Snapshot};

use super::*;
use crate::keys::{Key, KeyKind};

/// A marathon session running from front-end time 13,000 (its countdown over).
fn running(kind: ModeKind) -> (GameSession, Keymap) {
    let settings = Settings::default();
    let setup = GameSetup {
        seed: Some(7),
        ..GameSetup::preset(kind, RulesetId::Standard)
    };
    let mut s = GameSession::new(setup, 0, &settings, false, 10_000);
    s.tick(13_000, &settings.keys);
    assert_eq!(s.state(), RunState::Running);
    (s, settings.keys)
}

fn tap(s: &mut GameSession, key: Key, keys: &Keymap, at: u64) {
    s.key(key, KeyKind::Press, keys, at);
    s.key(key, KeyKind::Release, keys, at + 10);
}

fn state(s: &GameSession) -> Snapshot {
    s.game().snapshot().expect("a piece in play")
}

#[test]
fn undo_puts_the_last_placement_back_exactly_and_the_clock_goes_on_from_there() {
    let (mut s, keys) = running(ModeKind::Marathon);
    // Piece 1 goes left and down, piece 2 is held, piece 3 goes right and down.
    tap(&mut s, Key::Left, &keys, 13_100);
    s.key(Key::Char(' '), KeyKind::Press, &keys, 13_300);
    // The second piece has just spawned.
    let before_second = state(&s);
    let (board, stats, time) = (s.game().board().clone(), *s.game().stats(), s.game().now());
    let preview: Vec<_> = s.game().preview().collect();
    s.key(Key::Char(' '), KeyKind::Release, &keys, 13_310);
    tap(&mut s, Key::Char('c'), &keys, 13_600);
    assert!(s.game().hold_piece().is_some(), "c holds");
    tap(&mut s, Key::Right, &keys, 13_900);
    tap(&mut s, Key::Char(' '), &keys, 14_200);
    assert_eq!(s.game().stats().pieces, 2);
    assert!(!s.taken_back());

    assert_eq!(s.undo(15_000, &keys), Ok(()));
    // The second placement (and its hold) is gone: everything is as the second piece came.
    // (The whole state: board, piece and its timers, hold, queue, generator, chains, stats.)
    assert_eq!(state(&s), before_second);
    assert_eq!(s.game().board(), &board);
    assert_eq!(s.game().hold_piece(), None);
    assert_eq!(s.game().stats(), &stats);
    assert_eq!(s.game().preview().collect::<Vec<_>>(), preview);
    // The clock: game time is the checkpoint's at front-end 15,000 and runs on from it.
    assert_eq!(s.game_time(), time);
    s.tick(15_500, &keys);
    assert_eq!(s.game_time(), time + 500);
    assert!(s.taken_back());
    // Again: the first placement goes too; then nothing is left to take back.
    assert_eq!(s.undo(15_600, &keys), Ok(()));
    assert_eq!(s.game().stats().pieces, 0);
    assert!(s.game().board().is_empty());
    assert_eq!(s.undo(15_700, &keys), Err(NoRewind::NothingYet));
    // The game plays on and its replay says so: it does not rank.
    tap(&mut s, Key::Char(' '), &keys, 16_000);
    assert_eq!(s.game().stats().pieces, 1);
    let replay = s.game().replay();
    assert_eq!(
        minotty_domain::ranking::eligible(
            &replay,
            s.game().stats(),
            Some((minotty_engine::EndReason::TopOut, false))
        ),
        Err(minotty_domain::Unranked::Rewound)
    );
    assert_eq!(
        replay.play().expect("plays").snapshot(),
        s.game().snapshot()
    );
}

#[test]
fn a_savepoint_loads_back_as_it_was_kept() {
    let (mut s, keys) = running(ModeKind::Sprint);
    assert_eq!(s.load_savepoint(13_050, &keys), Err(NoRewind::NoSavepoint));
    tap(&mut s, Key::Char(' '), &keys, 13_100);
    s.tick(13_400, &keys);
    s.keep_savepoint();
    let kept = state(&s);
    let kept_time = s.game().now();
    for (i, key) in [
        Key::Left,
        Key::Char(' '),
        Key::Char(' '),
        Key::Right,
        Key::Char(' '),
    ]
    .into_iter()
    .enumerate()
    {
        tap(&mut s, key, &keys, 13_500 + 200 * i as u64);
    }
    assert_eq!(s.game().stats().pieces, 4);
    assert_eq!(s.load_savepoint(16_000, &keys), Ok(()));
    assert_eq!(state(&s), kept);
    assert_eq!(s.game_time(), kept_time);
    // The undo steps of what came after the savepoint are gone with it; those before stay.
    assert_eq!(s.undo(16_100, &keys), Ok(()));
    assert_eq!(s.game().stats().pieces, 0);
    // The savepoint came after the moment undo went back to: it went with what followed.
    assert_eq!(s.load_savepoint(16_200, &keys), Err(NoRewind::NoSavepoint));
}

#[test]
fn nothing_is_taken_back_in_descent_paused_or_held_keys() {
    let (mut s, keys) = running(ModeKind::Descent);
    assert_eq!(s.undo(13_500, &keys), Err(NoRewind::NotHere));
    let (mut s, keys) = running(ModeKind::Marathon);
    tap(&mut s, Key::Char(' '), &keys, 13_100);
    s.pause(13_200, &keys);
    assert_eq!(s.undo(13_300, &keys), Err(NoRewind::NotRunning));
    s.resume(14_000);
    // Left is held when undo comes: afterwards it counts as released (the piece stays).
    s.key(Key::Left, KeyKind::Press, &keys, 14_100);
    assert_eq!(s.undo(14_150, &keys), Ok(()));
    let x = s.game().active().map(|a| a.placed.x);
    s.tick(15_000, &keys);
    assert_eq!(s.game().active().map(|a| a.placed.x), x);
    assert!(!s.game().is_held(minotty_engine::Button::Left));
}

#[test]
fn undo_keeps_at_most_its_depth() {
    // The combo bot places pieces for a while (it keeps the combo going).
    let (mut s, keys) = running(ModeKind::Combo);
    assert!(s.toggle_bot(13_000, &keys));
    let mut t = 13_000;
    while s.game().stats().pieces < UNDO_DEPTH as u32 + 8 && !s.is_over() && t < 200_000 {
        t += 50;
        s.tick(t, &keys);
        assert!(s.rewinds.marks.len() <= UNDO_DEPTH);
    }
    assert!(!s.is_over(), "the bot broke the combo");
    s.toggle_bot(t, &keys);
    let placed = s.game().stats().pieces;
    let clearing = matches!(s.game().phase(), Phase::Clearing { .. });
    let mut undone = 0;
    while s.undo(t, &keys).is_ok() {
        undone += 1;
        t += 10;
    }
    // The newest checkpoint is the piece in play's (the others are placements to take back),
    // or during a line clear the piece that cleared (all of them are).
    assert!(
        undone == UNDO_DEPTH - 1 || (undone == UNDO_DEPTH && clearing),
        "{undone} taken back"
    );
    assert_eq!(s.game().stats().pieces, placed - undone as u32);
}
