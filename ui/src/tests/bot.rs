//! The combo bot at the controls: B hands a combo game to the bot and back, the screen says who
//! plays, the bot's taps reach the engine as ordinary inputs, and its games do not rank.

use minotty_engine::{Button, Input, ModeKind};

use super::*;
use crate::session::{COUNTDOWN_MS, TAP_MS, THINK_MS};

const BOT_LABEL: &str = "BOT PLAYING";

/// A combo game just after its countdown, and the front-end time. It starts at time 2, which
/// gives its seed a deal the bot can go on with: some deals end every combo within the first
/// few pieces (with a preview of 5 the bot sees it coming, but nothing helps).
fn combo() -> (App, u64) {
    let mut a = app();
    a.play(ModeKind::Combo, 2);
    a.tick(2 + COUNTDOWN_MS);
    (a, 2 + COUNTDOWN_MS)
}

fn pieces(a: &App) -> u32 {
    a.game().map_or(0, |g| g.stats().pieces)
}

fn inputs(a: &App) -> Vec<Input> {
    a.game()
        .map(|g| g.inputs().iter().map(|&(_, i)| i).collect())
        .unwrap_or_default()
}

#[test]
fn b_hands_a_combo_game_to_the_bot_and_back() {
    let (mut a, now) = combo();
    let s = screen(&a);
    assert!(!s.contains(BOT_LABEL), "{s}");
    assert!(s.contains("B bot plays"), "{s}");
    assert!(s.contains("ada"), "the player's name: {s}");

    press(&mut a, Key::Char('b'), now + 100);
    let s = screen(&a);
    assert!(s.contains("BOT PLAYING - press B to take over"), "{s}");
    assert!(!s.contains("ada"), "{s}");
    assert_eq!(inputs(&a).last(), Some(&Input::Bot));

    // The bot plays at its own pace: every placement keeps the combo.
    wakeups(&mut a, now + 100 + 5_000);
    let placed = pieces(&a);
    let game = a.game().expect("a game");
    assert!(placed >= 15, "{placed} pieces in 5 s");
    assert!(!game.is_over());
    assert_eq!(game.stats().lines, placed, "every piece cleared a line");
    assert_eq!(game.stats().max_combo + 1, placed);
    let taps = inputs(&a)
        .iter()
        .filter(|i| matches!(i, Input::Press(Button::HardDrop)))
        .count();
    assert_eq!(
        taps as u32, placed,
        "one hard drop per piece, pressed by the bot"
    );
    assert!(screen(&a).contains(BOT_LABEL));

    // B again: the label goes and the bot stops.
    press(&mut a, Key::Char('B'), now + 5_200);
    let s = screen(&a);
    assert!(!s.contains(BOT_LABEL), "{s}");
    assert!(s.contains("B bot plays"), "{s}");
    let placed = pieces(&a);
    wakeups(&mut a, now + 5_200 + 600);
    assert_eq!(pieces(&a), placed, "the bot no longer plays");
    // The player's keys work again.
    tap(&mut a, Key::Up, now + 5_900);
    assert_eq!(pieces(&a), placed + 1);

    // The whole game, bot and player, replays to the same end.
    let game = a.game().expect("a game");
    let verified = game.replay().verify().expect("the replay plays");
    assert_eq!(verified.stats, *game.stats());
}

#[test]
fn the_bot_s_taps_are_inputs_at_a_watchable_pace() {
    let (mut a, now) = combo();
    let x = piece_x(&a);
    press(&mut a, Key::Char('b'), now + 100);
    let from = a.game().map_or(0, |g| g.now());
    // The player's game keys do nothing while the bot plays.
    tap(&mut a, Key::Left, now + 105);
    assert_eq!(piece_x(&a), x);
    assert_eq!(inputs(&a).last(), Some(&Input::Bot));
    wakeups(&mut a, now + 100 + 2_000);
    let game = a.game().expect("a game");
    let taps: Vec<(u64, Input)> = game
        .inputs()
        .iter()
        .copied()
        .filter(|&(t, i)| t >= from && matches!(i, Input::Press(_)))
        .collect();
    assert!(taps.len() >= 5, "{taps:?}");
    assert_eq!(taps[0].0, from + THINK_MS, "the first tap after thinking");
    for pair in taps.windows(2) {
        assert!(pair[1].0 >= pair[0].0 + TAP_MS, "{pair:?}");
    }
    // Each tap is a press and a release at one time.
    let all = game.inputs();
    for (i, &(t, input)) in all.iter().enumerate() {
        if let Input::Press(b) = input {
            assert_eq!(all.get(i + 1), Some(&(t, Input::Release(b))));
        }
    }
}

#[test]
fn handed_over_in_the_countdown_the_bot_plays_from_the_first_piece() {
    let mut a = app();
    a.play(ModeKind::Combo, 2);
    press(&mut a, Key::Char('b'), 500);
    assert!(screen(&a).contains(BOT_LABEL));
    wakeups(&mut a, 2 + COUNTDOWN_MS + 2_000);
    let game = a.game().expect("a game");
    assert_eq!(game.inputs().first(), Some(&(0, Input::Bot)));
    assert!(pieces(&a) >= 4, "{} pieces", pieces(&a));
}

#[test]
fn the_results_of_a_game_the_bot_played_say_it_is_not_ranked() {
    let (mut a, now) = combo();
    press(&mut a, Key::Char('b'), now + 100);
    wakeups(&mut a, now + 1_000);
    press(&mut a, Key::Char('b'), now + 1_000);
    a.handle_key(ctrl('d'), now + 1_100);
    press(&mut a, Key::Enter, now + 1_200);
    let s = screen(&a);
    assert!(s.contains("RESULTS: Combo"), "{s}");
    assert!(s.contains("The bot played: not ranked"), "{s}");
    let finished = a.take_finished_game().expect("finished");
    assert!(finished.replay.inputs.iter().any(|(_, i)| *i == Input::Bot));

    // A game the player played alone says nothing of the kind.
    let (mut a, now) = playing(ModeKind::Combo);
    a.handle_key(ctrl('d'), now + 100);
    press(&mut a, Key::Enter, now + 200);
    let s = screen(&a);
    assert!(s.contains("RESULTS: Combo") && !s.contains("bot"), "{s}");
}

#[test]
fn b_does_nothing_outside_combo_mode_or_when_bound() {
    let (mut a, now) = playing(ModeKind::Sprint);
    press(&mut a, Key::Char('b'), now + 100);
    let s = screen(&a);
    assert!(!s.contains(BOT_LABEL) && !s.contains("B bot"), "{s}");
    assert!(!inputs(&a).contains(&Input::Bot));

    // A player who bound B to a game button gets the button.
    let mut settings = a.settings().clone();
    settings.keys.bind(Button::Hold, Key::Char('b'));
    a.set_settings(settings);
    let (mut combo, now) = {
        a.play(ModeKind::Combo, 10_000);
        a.tick(10_000 + COUNTDOWN_MS);
        (a, 10_000 + COUNTDOWN_MS)
    };
    press(&mut combo, Key::Char('b'), now + 100);
    assert!(!screen(&combo).contains(BOT_LABEL));
    assert!(inputs(&combo).contains(&Input::Press(Button::Hold)));
}

#[test]
fn the_help_screen_names_the_bot_key() {
    let mut a = app();
    for _ in 0..5 {
        press(&mut a, Key::Down, 0); // the sixth item: Help
    }
    press(&mut a, Key::Enter, 0);
    let s = lines(&draw(&a, 80, 40)).join("\n");
    assert!(s.contains("HELP"), "{s}");
    assert!(s.contains("Combo: the bot plays / you do"), "{s}");
}
