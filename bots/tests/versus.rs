//! Whole versus matches played by the placement bot in one deterministic room simulation: a
//! faster bot wins a battle and the match replays identically; a race deals everyone the same
//! pieces and the first to the goal wins. (Routing, cancelling and targeting with scripted
//! players are tested in the engine's `tests/versus.rs`.)

use minotty_bots::{Weights, best_plan};
use minotty_engine::versus::{Match, MatchEvent, MatchKind};
use minotty_engine::{Button, GameConfig, Input, Mode, Piece, Time};

fn battle_config() -> GameConfig {
    GameConfig {
        mode: Mode::custom(0, false, None),
        ..GameConfig::default()
    }
}

fn tap(m: &mut Match, p: usize, t: Time, b: Button) -> Vec<MatchEvent> {
    let mut out = m.input(p, t, Input::Press(b)).to_vec();
    out.extend_from_slice(m.input(p, t, Input::Release(b)));
    out
}

/// Plays every player with the placement bot, each at its own pace, until the match ends.
fn bot_match(m: &mut Match, pace: &[Time], limit: Time) {
    let weights = Weights::default();
    let mut next: Vec<Time> = pace.to_vec();
    while !m.is_over() {
        let (t, p) = next
            .iter()
            .enumerate()
            .map(|(p, &t)| (t, p))
            .min()
            .expect("players");
        if t > limit {
            break;
        }
        m.update(t);
        let game = m.game(p).expect("player");
        if !game.is_over()
            && let Some(plan) = best_plan(game, &weights)
        {
            for (k, b) in plan.buttons.into_iter().enumerate() {
                tap(m, p, t + k as Time, b);
            }
        }
        next[p] = t + pace[p];
    }
}

#[test]
fn a_faster_bot_wins_a_battle_and_the_match_replays_identically() {
    let run = || {
        let mut m = Match::new(
            MatchKind::Battle,
            vec![battle_config(); 2],
            &[11, 12],
            &[],
            3,
        );
        bot_match(&mut m, &[150, 900], 600_000);
        m
    };
    let a = run();
    let b = run();
    assert!(a.is_over());
    assert_eq!(a.router().winner(), Some(0));
    assert!(a.router().sent(0) > a.router().sent(1));
    assert_eq!(a.router().winner(), b.router().winner());
    assert_eq!(
        a.game(1).map(|g| g.board().clone()),
        b.game(1).map(|g| g.board().clone())
    );
}

#[test]
fn in_a_race_everyone_gets_the_same_pieces_and_the_first_to_the_goal_wins() {
    let sprint = GameConfig {
        mode: Mode::custom(0, true, Some((minotty_engine::Stat::Lines, 8))),
        ..GameConfig::default()
    };
    let mut m = Match::new(MatchKind::Race, vec![sprint; 3], &[77, 1, 2], &[], 4);
    m.update(0);
    let first: Vec<Vec<Piece>> = (0..3)
        .map(|p| m.game(p).expect("game").preview().collect())
        .collect();
    assert_eq!(first[0], first[1]);
    assert_eq!(first[1], first[2]);
    bot_match(&mut m, &[300, 200, 500], 600_000);
    assert!(m.is_over());
    assert_eq!(m.router().winner(), Some(1));
    assert_eq!(m.router().place(0), Some(2));
    assert_eq!(m.router().place(2), Some(3));
    // Races send no garbage.
    assert_eq!(m.game(0).expect("p0").stats().garbage_received, 0);
}
