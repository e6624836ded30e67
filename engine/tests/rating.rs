//! Glicko-2 against the worked example of Glickman's paper.

use minotty_engine::rating::{DEFAULT_TAU, Outcome, Rating};

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn paper_example() {
    // Section "Example calculation": a 1500 / 200 / 0.06 player, tau 0.5, against three opponents.
    let player = Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let games = [
        (1400.0, 30.0, 1.0),
        (1550.0, 100.0, 0.0),
        (1700.0, 300.0, 0.0),
    ]
    .map(|(rating, deviation, score)| Outcome {
        opponent: Rating {
            rating,
            deviation,
            volatility: 0.06,
        },
        score,
    });
    let after = player.update(&games, DEFAULT_TAU);
    assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
    assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
    assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
}

#[test]
fn a_period_without_games_only_widens_the_deviation() {
    let player = Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let after = player.update(&[], DEFAULT_TAU);
    assert_eq!(after.rating, 1500.0);
    assert!(close(after.deviation, 200.2714, 0.001), "{after:?}");
}

#[test]
fn new_players_start_at_the_standard_defaults_and_a_win_gains_what_the_loser_loses() {
    let a = Rating::default();
    let b = Rating::default();
    assert_eq!((a.rating, a.deviation, a.volatility), (1500.0, 350.0, 0.06));
    let a2 = a.update(
        &[Outcome {
            opponent: b,
            score: 1.0,
        }],
        DEFAULT_TAU,
    );
    let b2 = b.update(
        &[Outcome {
            opponent: a,
            score: 0.0,
        }],
        DEFAULT_TAU,
    );
    assert!(a2.rating > 1500.0 && b2.rating < 1500.0);
    assert!(close(a2.rating - 1500.0, 1500.0 - b2.rating, 1e-9));
    assert!(a2.deviation < 350.0);
}
