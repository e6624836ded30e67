//! Stock and KO badges in a room. Stock: every player's game gets the room's extra lives
//! through `MatchStart` (its mode's `lives`); a top-out with a life left is a fresh board in
//! the player's own engine, so it reports no end and the room keeps them in, others see the
//! lives left, the last top-out is the end, and the one replay spanning every life verifies as
//! the recorder judges a seat (under the room's rules). KO badges: an attack sent after a knock-out arrives raised.

use minotty_domain::seat_judge::{SeatCheck, SeatClaims};
use minotty_domain::seat_rules::{MatchRules, judge_seat_under};
use minotty_engine::versus::{GameDraft, GameSettings, SeriesSettings};
use minotty_engine::{Button, Game, GameConfig, Input};
use minotty_protocol::{EventDigest, end_reports, progress_of};

use super::*;

async fn match_start(c: &mut Client) -> minotty_protocol::MatchStart {
    c.wait(|r| match r {
        Response::MatchStart(s) => Some(s),
        _ => None,
    })
    .await
}

/// Hard drops (no line cleared) at 50 ms steps until a respawn or the end: the digest of
/// everything that happened.
fn drop_until(game: &mut Game, t: &mut u64, respawn: bool) -> EventDigest {
    let mut events: Vec<minotty_engine::Event> = Vec::new();
    while !game.is_over() && *t < 200_000 {
        *t += 50;
        events.extend(game.update(*t, Some(Input::Press(Button::HardDrop))));
        *t += 50;
        events.extend(game.update(*t, Some(Input::Release(Button::HardDrop))));
        let respawned = events
            .iter()
            .any(|e| matches!(e.kind, minotty_engine::EventKind::Respawn { .. }));
        if respawn && respawned {
            break;
        }
    }
    EventDigest::of(&events)
}

#[tokio::test(start_paused = true)]
async fn a_player_with_a_life_left_plays_on_and_one_replay_spans_every_life() {
    let shared = SharedVersus::default();
    let options = battle(2).with_series(SeriesSettings::new(1, 1, 2));
    let (mut c, _) = room_of(&shared, options, &["ann", "bob"]).await;
    c[0].send(Request::Room(RoomCommand::Start));
    let start = match_start(&mut c[0]).await;
    match_start(&mut c[1]).await;
    assert_eq!(
        start.mode.lives, 2,
        "the room's stock is every game's lives"
    );
    let config = GameConfig {
        mode: start.mode.clone(),
        ruleset: start.game.ruleset(),
        tuning: start.game.tuning(),
        ..GameConfig::default()
    };
    let mut game = Game::new(config, start.seed);
    let mut t = 0;
    // Ann's first top-out: a respawn, no end to report.
    let digest = drop_until(&mut game, &mut t, true);
    assert_eq!(digest.finished, None);
    assert_eq!(game.lives_left(), 1);
    c[0].report(vec![Report::Progress(progress_of(&game))]);
    // Bob sees her still in, one life left.
    let ann = c[1]
        .wait(|r| match r {
            Response::Opponents(list) => list.into_iter().find(|o| o.progress.lives == 1),
            _ => None,
        })
        .await;
    assert!(ann.alive && ann.place.is_none(), "{ann:?}");
    // Her second, then her last: the end.
    drop_until(&mut game, &mut t, true);
    assert_eq!(game.lives_left(), 0);
    let digest = drop_until(&mut game, &mut t, false);
    assert_eq!(digest.finished, Some((false, false)));
    let replay = game.replay();
    c[0].report(end_reports(&game, false, false).to_vec());
    let over = result(&mut c[1]).await;
    let places: Vec<(&str, u8)> = over
        .rows
        .iter()
        .map(|r| (r.name.as_str(), r.place))
        .collect();
    assert_eq!(places, [("bob", 1), ("ann", 2)]);
    // The one replay of all three lives verifies as the match recorder judges a seat.
    let claims = SeatClaims {
        seed: start.seed,
        lines: 0,
        routed_attack: 0,
    };
    assert_eq!(replay.mode.lives, 2);
    let rules = MatchRules::of(&options);
    assert_eq!(
        judge_seat_under(Some(&replay.to_bytes()), claims, &rules),
        SeatCheck::Verified
    );
}

/// (badges on) -> the lines cid receives of ann's 4 after she knocked bob out.
#[tokio::test(start_paused = true)]
async fn a_knock_out_raises_the_attack_by_a_badge() {
    for (badges, want) in [(false, 4u8), (true, 5)] {
        let shared = SharedVersus::default();
        let game = GameSettings::new(GameDraft {
            ko_badges: badges,
            ..GameDraft::DEFAULT
        });
        let options = battle(3).with_game(game);
        let (mut c, _) = room_of(&shared, options, &["ann", "bob", "cid"]).await;
        start(&mut c).await;
        // Even targeting: ann's first line goes to bob (fewest received, lowest seat).
        c[0].report(vec![Report::Attack { lines: 1 }]);
        let first = c[1]
            .wait(|r| match r {
                Response::Garbage { lines, from } => Some((lines, from)),
                _ => None,
            })
            .await;
        assert_eq!(first, (1, 0));
        c[1].report(vec![Report::Finished {
            won: false,
            progress: Progress::default(),
        }]);
        // Bob's knock-out is ann's: her next attack goes to cid, raised by the badge.
        c[0].report(vec![Report::Attack { lines: 4 }]);
        let next = c[2]
            .wait(|r| match r {
                Response::Garbage { lines, from } => Some((lines, from)),
                _ => None,
            })
            .await;
        assert_eq!(next, (want, 0), "badges {badges}");
    }
}
