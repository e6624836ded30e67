//! `minotty arena --tbp NAME=COMMAND`: an external bot (here `minotty-bot` answering as Cold
//! Clear 2 does right after a `start`) against a built-in level, both seatings on the same
//! pieces, at one pace.

mod common;

use common::BOT;
use minotty_tbp::arena::{ArenaArgs, parse_levels, tbp};

fn args(command: &str) -> ArenaArgs {
    ArenaArgs {
        matches: 2,
        levels: parse_levels("3").expect("levels"),
        threads: Some(1),
        limit_secs: 30,
        seed: 7,
        tbp: vec![format!("cold={command}").parse().expect("a spec")],
        pps: 10.0,
        think_ms: 0,
        move_ms: 2000,
        keeper: Some(BOT.into()),
    }
}

#[test]
fn a_tbp_bot_plays_a_level_in_both_seatings_and_the_report_says_how_it_went() {
    let a = args(&format!("{BOT} --fault cold-start"));
    let r = tbp::run(&a).expect("the run");
    let text = r.render();
    println!("{text}");
    assert_eq!(r.matches, 2, "both seatings of the one pair");
    assert_eq!((r.played[0][1], r.played[1][0]), (2, 2));
    assert_eq!(r.forfeits, [0, 0], "no forfeit: {text}");
    assert!(r.pieces[0] > 20 && r.pieces[1] > 20, "{:?}", r.pieces);
    assert!(text.contains("Wilson"), "{text}");
    assert!(
        text.contains("cold vs L3") && text.contains("L3 vs cold"),
        "{text}"
    );
    // The same run again finds the same: the pieces and the pace are the seed's, whatever the
    // bot's wall time.
    let again = tbp::run(&a).expect("the run");
    assert_eq!(
        (again.wins, again.sent, again.pieces),
        (r.wins, r.sent, r.pieces)
    );
}

#[test]
fn a_bot_that_cannot_start_forfeits_every_match() {
    let r = tbp::run(&args("/nonexistent/bot")).expect("the run");
    assert_eq!(r.forfeits, [2, 0]);
    assert_eq!(r.wins[1][0], 2, "{}", r.render());
    assert_eq!(r.reasons.len(), 1, "one reason: {:?}", r.reasons);
    let text = r.render();
    assert!(text.contains("cold forfeited 2x: the bot exited"), "{text}");
}
