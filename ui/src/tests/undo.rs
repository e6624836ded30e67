//! Undo and the savepoint in the App: Ctrl+Z and Ctrl+L act at once and say what they did in
//! the game's footer, the results say the game is not ranked, and a versus game has neither.

use minotty_engine::ModeKind;

use super::*;

#[test]
fn ctrl_z_takes_the_last_placement_back_and_the_results_say_it_does_not_rank() {
    let (mut a, now) = playing(ModeKind::Marathon);
    let before = board_rows(&a);
    tap(&mut a, Key::Char(' '), now + 100);
    assert_ne!(board_rows(&a), before, "a piece landed");
    assert_eq!(a.game().map(|g| g.stats().pieces), Some(1));
    a.handle_key(ctrl('z'), now + 300);
    assert_eq!(a.game().map(|g| g.stats().pieces), Some(0));
    assert_eq!(board_rows(&a), before, "the board is as it was");
    let s = screen(&a);
    assert!(s.contains("Taken back: this game no longer ranks"), "{s}");
    // Nothing left: the footer says so.
    a.handle_key(ctrl('z'), now + 400);
    assert!(screen(&a).contains("Nothing placed to take back"));
    a.handle_key(ctrl('l'), now + 500);
    assert!(screen(&a).contains("No savepoint in this game: Ctrl+S stores one"));
    // Ctrl+Z and Ctrl+L are no game buttons: the inputs are the rewind's own.
    let inputs: Vec<_> = a
        .game()
        .map(|g| g.inputs().iter().map(|&(_, i)| i).collect())
        .unwrap_or_default();
    assert_eq!(
        inputs,
        [
            minotty_engine::Input::Rewind,
            minotty_engine::Input::ReleaseAll
        ]
    );
    a.handle_key(ctrl('d'), now + 600);
    press(&mut a, Key::Enter, now + 700);
    let s = screen(&a);
    assert!(s.contains("RESULTS: Marathon"), "{s}");
    assert!(s.contains("Taken back: not ranked"), "{s}");
}

#[test]
fn ctrl_s_keeps_a_savepoint_that_ctrl_l_loads_back() {
    let (mut a, now) = playing(ModeKind::Sprint);
    tap(&mut a, Key::Char(' '), now + 100);
    // Once the drop's trail has faded (effects are not part of a savepoint).
    a.tick(now + 1_000);
    a.handle_key(ctrl('s'), now + 1_000);
    let kept = board_rows(&a);
    for i in 0..3 {
        tap(&mut a, Key::Left, now + 1_100 + 100 * i);
        tap(&mut a, Key::Char(' '), now + 1_150 + 100 * i);
    }
    assert_eq!(a.game().map(|g| g.stats().pieces), Some(4));
    a.handle_key(ctrl('l'), now + 2_000);
    assert_eq!(a.game().map(|g| g.stats().pieces), Some(1));
    assert_eq!(board_rows(&a), kept);
    assert!(screen(&a).contains("Savepoint loaded: this game no longer ranks"));
}

/// Ctrl+E keeps the game's seed for Custom (tetro-tui's "store seed"): the custom options
/// show it, and the custom game deals the same pieces as the game it came from.
#[test]
fn ctrl_e_keeps_the_seed_for_custom() {
    let (mut a, now) = playing(ModeKind::Marathon);
    let game = a.game().expect("a game").clone();
    a.handle_key(ctrl('e'), now + 100);
    assert!(screen(&a).contains("Seed kept: New game, Custom deals these pieces"));
    let setup = a.custom_setup();
    assert_eq!(setup.seed, Some(game.seed()), "Custom has it");
    // Ctrl+E is no game button: nothing was recorded.
    assert!(a.game().is_some_and(|g| g.inputs().is_empty()));
}
