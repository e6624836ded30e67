//! The one rule both the duel and the TBP arena (`minotty_tbp::arena`) judge a two-seat battle
//! by: a knock-out (or forfeit) decides it; an unfinished match goes to the seat that sent more
//! attack.

use minotty_bots::versus::{self, DuelVerdict, Level, duel, duel_verdict};
use minotty_engine::Input;
use minotty_engine::versus::Match;

fn battle() -> Match {
    let mut m = versus::battle([7, 8], 9);
    m.update(0);
    m
}

#[test]
fn an_unfinished_match_with_equal_attack_is_a_timed_out_tie() {
    let m = battle();
    assert_eq!(
        duel_verdict(&m),
        DuelVerdict {
            winner: None,
            timed_out: true,
            sent: [0, 0],
        }
    );
}

#[test]
fn a_forfeit_ends_the_match_for_the_other_seat() {
    for (quits, wins) in [(0, 1), (1, 0)] {
        let mut m = battle();
        m.input(quits, 1_000, Input::Forfeit);
        let v = duel_verdict(&m);
        assert_eq!(v.winner, Some(wins), "seat {quits} forfeits");
        assert!(!v.timed_out);
    }
}

#[test]
fn timed_out_duels_go_to_the_seat_that_sent_more() {
    let level = |n| Level::new(n).expect("a level");
    let mut timed_out = 0;
    for seed in 0..6 {
        let d = duel([level(4), level(4)], seed, 15_000);
        if d.timed_out {
            timed_out += 1;
            match d.winner {
                Some(w) => assert!(d.sent[w] > d.sent[1 - w], "seed {seed}: {d:?}"),
                None => assert_eq!(d.sent[0], d.sent[1], "seed {seed}: {d:?}"),
            }
        }
    }
    assert!(
        timed_out > 0,
        "15 s of game time ends some duels unfinished"
    );
}
