//! Studying a replay: speeds in steps of 0.25x and 0.05x, a second back and forth, jumps to
//! each tenth and the ends (proven equal to playing up to there, at a bounded cost), steps
//! of one input or one change, and taking the game over from any moment.

use minotty_engine::{Game, Playback, Replay, Time};

use super::account::{bot_replay, watching};
use super::*;
use crate::keys::{KeyEvent, Mods};
use crate::screens::account_replay::{
    ReplayAction, ReplayScreen, SEEK_MS, SPEED_MAX, SPEED_MIN, speed_text,
};

fn key(k: Key) -> KeyEvent {
    KeyEvent {
        key: k,
        kind: KeyKind::Press,
        mods: Mods::default(),
    }
}

/// The game of `replay` played from its start up to `t`.
fn straight(replay: &Replay, t: Time) -> Game {
    let mut p = Playback::new(replay.clone()).expect("plays");
    p.advance_to(t);
    p.game().fork()
}

fn same(screen: &ReplayScreen, replay: &Replay, what: &str) {
    let t = screen.position();
    let g = straight(replay, t);
    assert_eq!(screen.game_view().now(), g.now(), "{what}");
    assert_eq!(screen.game_view().snapshot(), g.snapshot(), "{what} at {t}");
    assert_eq!(screen.game_view().stats(), g.stats(), "{what} at {t}");
    assert_eq!(screen.game_view().board(), g.board(), "{what} at {t}");
}

#[test]
fn every_jump_and_step_shows_the_game_as_played_up_to_there() {
    let (replay, _) = bot_replay();
    let end = replay.end;
    let mut s = ReplayScreen::new(replay.clone(), "bob".into(), 1, 0).expect("plays");
    s.handle(key(Key::Char(' ')), 0); // paused: only keys move it
    let mut expected: Time = 0;
    for (k, to) in [
        (Key::Char('5'), end / 2),
        (Key::Right, end / 2 + SEEK_MS),
        (Key::Char('2'), end * 2 / 10),
        (Key::Left, end * 2 / 10 - SEEK_MS),
        (Key::Char('9'), end * 9 / 10),
        (Key::End, end),
        (Key::Home, 0),
        (Key::Char('7'), end * 7 / 10),
    ] {
        assert_eq!(s.handle(key(k), 10), ReplayAction::Changed, "{k:?}");
        expected = to;
        assert_eq!(s.position(), expected, "{k:?}");
        same(&s, &replay, &format!("{k:?}"));
    }
    // '.' steps to the next recorded input, ',' to the next change of any kind; both pause.
    let next_input = replay
        .inputs
        .iter()
        .map(|&(t, _)| t)
        .find(|&t| t > expected)
        .expect("inputs after 70 %");
    s.handle(key(Key::Char('.')), 20);
    assert_eq!(s.position(), next_input);
    assert!(s.paused);
    same(&s, &replay, "a step of one input");
    let before = s.position();
    let due = s.game_view().next_deadline();
    s.handle(key(Key::Char(',')), 30);
    let after = s.position();
    assert!(after > before && due.is_none_or(|d| after <= d.max(before + 1)));
    same(&s, &replay, "a step of one change");
}

#[test]
fn a_jump_costs_at_most_one_anchor_gap_of_inputs_once_played() {
    let (replay, _) = bot_replay();
    let mut s = ReplayScreen::new(replay.clone(), "bob".into(), 1, 0).expect("plays");
    s.handle(key(Key::End), 0);
    let gap = replay
        .end
        .div_ceil(minotty_engine::MAX_ANCHORS as Time)
        .max(minotty_engine::MIN_ANCHOR_GAP);
    let most = (0..=replay.end / gap)
        .map(|k| {
            let inside = |&&(t, _): &&(Time, _)| t >= k * gap && t <= (k + 1) * gap;
            replay.inputs.iter().filter(inside).count() as u64
        })
        .max()
        .unwrap_or(0);
    for d in ['1', '9', '3', '8', '2', '5'] {
        let before = s.fed();
        s.handle(key(Key::Char(d)), 10);
        assert!(
            s.fed() - before <= most,
            "{d}: {} > {most}",
            s.fed() - before
        );
    }
}

#[test]
fn speeds_step_by_a_quarter_and_a_twentieth_between_their_bounds() {
    let (replay, _) = bot_replay();
    let mut s = ReplayScreen::new(replay, "bob".into(), 1, 0).expect("plays");
    let mut seen = Vec::new();
    for k in [
        Key::Char('+'),
        Key::Char(']'),
        Key::Char(']'),
        Key::Char('['),
        Key::Char('-'),
        Key::Char('-'),
        Key::Down,
        Key::Down,
        Key::Char('['),
        Key::Char('='),
    ] {
        s.handle(key(k), 0);
        seen.push(speed_text(s.speed()).as_str().to_string());
    }
    assert_eq!(
        seen,
        [
            "1.25x", "1.3x", "1.35x", "1.3x", "1.25x", "1x", "0.75x", "0.5x", "0.45x", "1x"
        ]
    );
    for _ in 0..200 {
        s.handle(key(Key::Char('[')), 0);
    }
    assert_eq!(s.speed(), SPEED_MIN);
    for _ in 0..200 {
        s.handle(key(Key::Char('+')), 0);
    }
    assert_eq!(s.speed(), SPEED_MAX);
    // At 0.25x, 1 s of game time takes 4 s.
    let (replay, _) = bot_replay();
    let mut s = ReplayScreen::new(replay, "bob".into(), 1, 0).expect("plays");
    for _ in 0..3 {
        s.handle(key(Key::Char('-')), 0);
    }
    s.tick(4_000);
    assert_eq!(s.position(), 1_000);
}

#[test]
fn t_takes_the_game_over_from_the_moment_shown_and_it_does_not_rank() {
    let (replay, _) = bot_replay();
    let t0 = 1_000;
    let mut a = watching(&replay, t0);
    press(&mut a, Key::Char(' '), t0);
    press(&mut a, Key::Char('5'), t0 + 10);
    let at = replay.end / 2;
    let reference = straight(&replay, at);
    press(&mut a, Key::Char('t'), t0 + 20);
    // A live game: its countdown, then play from the moment taken.
    let s = screen(&a);
    assert!(s.contains("40 Lines") && !s.contains("REPLAY"), "{s}");
    let game = a.game().expect("a live game").clone();
    assert_eq!(game.now(), at);
    assert_eq!(game.board(), reference.board());
    assert_eq!(game.stats(), reference.stats());
    a.tick(t0 + 20 + COUNTDOWN_MS + 500);
    assert_eq!(a.game().map(|g| g.now()), Some(at + 500));
    tap(&mut a, Key::Char(' '), t0 + 20 + COUNTDOWN_MS + 600);
    assert_eq!(
        a.game().map(|g| g.stats().pieces),
        Some(reference.stats().pieces + 1)
    );
    a.handle_key(ctrl('d'), t0 + 20 + COUNTDOWN_MS + 700);
    press(&mut a, Key::Enter, t0 + 20 + COUNTDOWN_MS + 800);
    let s = screen(&a);
    assert!(s.contains("From game #1001's replay: not ranked"), "{s}");
    // Its replay is the recording up to there, the marker, and the player's own moves: it
    // re-simulates to the game played, and it does not rank.
    let done = a.take_finished_game().expect("the game is stored");
    let verified = done.replay.verify().expect("plays");
    assert_eq!(verified.stats, done.stats);
    assert_eq!(&done.replay.inputs[..game.inputs().len()], game.inputs());
    assert!(
        done.replay
            .inputs
            .contains(&(at, minotty_engine::Input::Rewind))
    );
    // (Forfeited here; had it reached its goal, the marker would keep it off the boards.)
    assert_eq!(
        verified.outcome.map(|(r, _)| r),
        Some(minotty_engine::EndReason::Forfeit)
    );
    let goal = minotty_engine::EndReason::Limit(minotty_engine::mode::Stat::Lines);
    let stats = minotty_engine::Stats {
        lines: 40,
        ..done.stats
    };
    assert_eq!(
        minotty_domain::ranking::eligible(&done.replay, &stats, Some((goal, true))),
        Err(minotty_domain::Unranked::Rewound)
    );
}

/// The viewer drawn at `w` x `h`.
fn frame_of(s: &ReplayScreen, w: u16, h: u16) -> Vec<String> {
    use ratatui::widgets::Widget;
    let area = ratatui::layout::Rect::new(0, 0, w, h);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    let settings = crate::Settings::default();
    crate::screens::account_replay::ReplayView {
        state: s,
        settings: &settings,
        web: None,
    }
    .render(area, &mut buf);
    crate::testutil::lines(&buf)
}

#[test]
fn the_viewer_at_80x24_paused_half_way() {
    let (replay, _) = bot_replay();
    let mut s = ReplayScreen::new(replay, "bob".into(), 42, 0).expect("plays");
    s.handle(key(Key::Char(' ')), 0);
    s.handle(key(Key::Char('5')), 0);
    for _ in 0..2 {
        s.handle(key(Key::Char('-')), 0);
    }
    // Half-way at 0.5x, paused: the clock and the bar at 50 %, the keys under the board.
    let expected = [
        "             REPLAY · bob · 40 Lines · standard · 0.5x                          ",
        "                   ┌── HOLD ──┐ ┌────────────────────┐ ┌── NEXT ──┐             ",
        "                   │          │ │ · · · · ·██ · · · ·│ │  ████    │             ",
        "                   │          │ │ · · ·██████ · · · ·│ │    ████  │             ",
        "                   └──────────┘ │ · · · · · · · · · ·│ │          │             ",
        "                                │ · · · · · · · · · ·│ │    ██    │             ",
        "             LEVEL            0 │ · · · · · · · · · ·│ │          │             ",
        "             LINES        18/40 │ · · · · · · · · · ·│ │   █▄▄    │             ",
        "             SCORE         2976 │ · · · · · · · · · ·│ │          │             ",
        "             TIME        0:08.3 │ · · · · · · · · · ·│ │    ██    │             ",
        "             PIECES          52 │ · · · · · · · · · ·│ │          │             ",
        "             PPS           6.20 │ · · · · · · · · · ·│ │   █▄▄    │             ",
        "                                │ · · · · · · · · · ·│ └──────────┘             ",
        "                                │ · · · · · · · · · ·│                          ",
        "                                │ · · · · · · · · · ·│                          ",
        "                                │ · · · · · · · · · ·│                          ",
        "                                │ · · · · ·░░ · · · ·│                          ",
        "                                │ · · ·░░░░░░ · · ·██│                          ",
        "                                │ · ·████ · · · · ·██│                          ",
        "                                │██████████ · · · ·██│                          ",
        "             0:08.3 / 0:16.7    │████████ ·██████████│                          ",
        "             ████████░░░░░░░░   │████ ·██████████████│                          ",
        "             PAUSED             └────────────────────┘                          ",
        "             Space pause  ←→ 1s  1-9 jump  +-[] speed  t take over              ",
    ];
    assert_eq!(frame_of(&s, 80, 24), expected);
}
