//! The versus bot plays real games by the rules: it clears lines, sends garbage, survives
//! garbage, its games replay and verify, it decides the same on and off its own thread, it is
//! deterministic, and its levels are ordered.

use minotty_bots::versus::{Level, VersusBot, duel};
use minotty_engine::{Game, GameConfig, Input, Mode, Time};

fn battle_game(seed: u32) -> Game {
    let mut g = Game::new(
        GameConfig {
            mode: Mode::custom(0, true, None),
            ..GameConfig::default()
        },
        seed,
    );
    g.update(0, None);
    g
}

/// Plays `game` with `bot` until `pieces` pieces are down, the game ends or `limit` ms of game
/// time pass; `garbage` lines arrive every `every` ms. Returns every input with its time.
fn play(
    game: &mut Game,
    bot: &mut VersusBot,
    pieces: u32,
    limit: Time,
    garbage: (u8, Time),
) -> Vec<(Time, Input)> {
    let mut inputs = Vec::new();
    let mut next_garbage = garbage.1;
    while !game.is_over() && game.stats().pieces < pieces && game.now() < limit {
        let b = bot.poll(game);
        let d = game.next_deadline();
        let g = (garbage.0 > 0).then_some(next_garbage);
        let t = [b, d, g]
            .into_iter()
            .flatten()
            .min()
            .expect("something is due");
        if g == Some(t) && b.is_none_or(|b| b >= t) && d.is_none_or(|d| d >= t) {
            game.update(t, Some(Input::Garbage(garbage.0)));
            next_garbage += garbage.1;
        } else if d == Some(t) {
            game.update(t, None);
        } else if let Some(input) = bot.act(game, t) {
            inputs.push((t, input));
            game.update(t, Some(input));
        } else {
            game.update(t, None);
        }
    }
    inputs
}

fn level(n: u8) -> Level {
    Level::new(n).expect("a level")
}

#[test]
fn the_bot_clears_lines_and_sends_garbage() {
    let mut game = battle_game(3);
    let mut bot = VersusBot::new(level(4), 1);
    play(&mut game, &mut bot, 120, 600_000, (0, 0));
    let s = game.stats();
    assert!(!game.is_over(), "{s:?}");
    assert_eq!(s.pieces, 120);
    // 120 pieces are 480 cells: 48 lines if nothing stayed on the board.
    assert!(s.lines >= 40, "{s:?}");
    assert!(s.attack >= 15, "{s:?}");
    assert!(game.board().stack_height() <= 10, "{:?}", game.board());
}

#[test]
fn it_survives_400_pieces_at_depth_2_under_steady_garbage() {
    let mut game = battle_game(11);
    let mut bot = VersusBot::new(level(5), 2);
    assert_eq!(bot.level().spec().depth, 2);
    // Three lines every 4 s: a little more than a steady opponent at two pieces a second.
    play(&mut game, &mut bot, 400, 3_600_000, (3, 4000));
    let s = game.stats();
    assert!(!game.is_over(), "{s:?}\n{:?}", game.board());
    assert_eq!(s.pieces, 400);
    assert!(s.garbage_received >= 120, "{s:?}");
    assert!(s.garbage_cleared > 0, "{s:?}");
}

#[test]
fn a_bot_game_replays_and_verifies() {
    let mut game = battle_game(5);
    let mut bot = VersusBot::new(level(6), 9);
    play(&mut game, &mut bot, 150, 600_000, (2, 5000));
    let replay = game.replay();
    let verified = replay.verify().expect("the replay verifies");
    assert_eq!(verified.stats, *game.stats());
    assert!(
        game.stats().tspins + game.stats().tetrises > 0,
        "{:?}",
        game.stats()
    );
}

#[test]
fn same_seed_same_inputs_and_another_seed_other_mistakes() {
    let run = |seed| {
        let mut game = battle_game(7);
        let mut bot = VersusBot::new(level(1), seed);
        play(&mut game, &mut bot, 40, 600_000, (0, 0))
    };
    assert_eq!(run(1), run(1));
    assert_ne!(run(1), run(2), "level 1 makes seeded mistakes");
}

#[test]
fn a_decision_made_elsewhere_plays_the_same() {
    let mut inline = battle_game(8);
    let mut bot = VersusBot::new(level(5), 4);
    let a = play(&mut inline, &mut bot, 60, 600_000, (0, 0));
    // The same, with every decision handed out as a job and handed back.
    let mut game = battle_game(8);
    let mut bot = VersusBot::new(level(5), 4);
    let mut b = Vec::new();
    while game.stats().pieces < 60 && !game.is_over() {
        if let Some(job) = bot.decision_job(&game) {
            assert!(bot.decision_job(&game).is_none(), "one job at a time");
            let done = std::thread::spawn(move || job.run()).join().expect("joins");
            bot.accept(done, &game);
        }
        let (t, input) = match (bot.next_at(&game), game.next_deadline()) {
            (Some(t), d) if d.is_none_or(|d| t < d) => (t, bot.act(&game, t)),
            (_, Some(d)) => (d, None),
            _ => break,
        };
        if let Some(i) = input {
            b.push((t, i));
        }
        game.update(t, input);
    }
    assert_eq!(a, b);
}

#[test]
fn a_decision_for_a_piece_gone_meanwhile_is_dropped() {
    let mut game = battle_game(2);
    let mut bot = VersusBot::new(level(3), 1);
    let job = bot.decision_job(&game).expect("a job");
    // The piece locks by itself before the decision comes back.
    while game.stats().pieces == 0 {
        let t = game.next_deadline().expect("gravity");
        game.update(t, None);
    }
    bot.accept(job.run(), &game);
    assert!(game.active().is_some(), "the next piece is in play");
    assert_eq!(bot.next_at(&game), None, "no moves for the old piece");
    assert!(bot.needs_decision(&game));
}

#[test]
fn higher_levels_beat_lower_ones() {
    for (high, low) in [(3, 1), (5, 2), (6, 3)] {
        let wins = (0..4)
            .filter(|&seed| duel([level(high), level(low)], seed, 120_000).winner == Some(0))
            .count();
        assert!(
            wins >= 3,
            "level {high} won {wins} of 4 against level {low}"
        );
    }
}

#[test]
fn levels_are_numbered_and_named() {
    assert_eq!(Level::ALL.len(), 7);
    assert_eq!(Level::new(0), None);
    assert_eq!(Level::new(8), None);
    assert_eq!(level(1).name(), "gentle");
    assert_eq!(level(7).to_string(), "level 7 (relentless)");
    let pps: Vec<f64> = Level::ALL.iter().map(|l| l.spec().pps()).collect();
    assert!(pps.windows(2).all(|w| w[0] < w[1]), "{pps:?}");
    assert!(pps[0] < 1.0 && pps[6] > 4.0, "{pps:?}");
}
