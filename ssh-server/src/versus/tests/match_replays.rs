//! Every seat's replay is stored with its match and judged as solo games are: a real game of
//! the match's seed is verified, one of another seed is not, a seat that sent none is missing.

use std::time::Duration;

use minotty_engine::{Button, Game, GameConfig, Input, Mode, Replay};
use minotty_protocol::{Progress, Report};

use super::{battle, result, room_of, start, temp_store};
use crate::services::versus::SharedVersus;

/// A real game on `seed`: a few hard drops.
fn played(seed: u32) -> Replay {
    let config = GameConfig {
        mode: Mode::custom(0, true, None),
        ..GameConfig::default()
    };
    let mut game = Game::new(config, seed);
    for i in 0..4u64 {
        game.update(100 * i + 50, Some(Input::Press(Button::HardDrop)));
        game.update(100 * i + 90, Some(Input::Release(Button::HardDrop)));
    }
    game.replay()
}

#[tokio::test]
async fn every_seat_is_stored_with_its_replay_judged() {
    let (_dir, store) = temp_store().await;
    let shared = SharedVersus::new(Some(store.clone()), None);
    let (mut c, _) = room_of(&shared, battle(3), &["ann", "bob", "cid"]).await;
    let seed = start(&mut c).await;
    let finished = || Report::Finished {
        won: false,
        progress: Progress::default(),
    };
    // bob's replay is of another seed; cid's session ends before it sends one.
    c[1].report(vec![finished(), Report::Replay(Box::new(played(seed ^ 1)))]);
    drop(c[2].client.take());
    result(&mut c[0]).await;
    c[0].report(vec![Report::Replay(Box::new(played(seed)))]);
    let mut seats = Vec::new();
    for _ in 0..200 {
        seats = store
            .match_players(minotty_store::MatchId(1))
            .await
            .unwrap();
        if !seats.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let checks: Vec<(&str, Option<&str>, bool)> = seats
        .iter()
        .map(|s| {
            (
                s.name.as_str(),
                s.replay_check.as_deref(),
                s.replay.is_some(),
            )
        })
        .collect();
    assert_eq!(
        checks,
        [
            ("ann", Some("verified"), true),
            ("bob", Some("unverified: of another seed"), true),
            ("cid", Some("missing"), false),
        ]
    );
    let back = Replay::from_bytes(seats[0].replay.as_deref().unwrap()).unwrap();
    assert_eq!(back, played(seed));
}

/// A match stores the room's settings it was played under, and its viewer gets them back
/// (clamped, as every serde read of them is); a seat's replay of other rules is unverified.
#[tokio::test]
async fn a_match_stores_its_settings_for_the_viewer() {
    use minotty_engine::RulesetId;
    use minotty_engine::versus::{GameDraft, GameSettings, SeriesSettings};
    let (_dir, store) = temp_store().await;
    let shared = SharedVersus::new(Some(store.clone()), None);
    let settings = battle(2)
        .with_series(SeriesSettings::new(1, 1, 2))
        .with_game(GameSettings::new(GameDraft {
            ruleset: RulesetId::Tetrs,
            ko_badges: true,
            ..GameDraft::DEFAULT
        }));
    let (mut c, code) = room_of(&shared, settings, &["ann", "bob"]).await;
    let seed = start(&mut c).await;
    c[1].report(vec![
        Report::Finished {
            won: false,
            progress: Progress::default(),
        },
        Report::Replay(Box::new(played(seed))),
    ]);
    result(&mut c[0]).await;
    c[0].report(vec![Report::Replay(Box::new(played(seed)))]);
    let of = minotty_protocol::MatchRef::Played { room: code, seed };
    let mut loaded = None;
    for _ in 0..200 {
        if let Ok(m) = crate::match_replays::load(&store, &of, None).await {
            loaded = Some(m);
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let m = loaded.expect("stored");
    assert_eq!(m.settings, Some(settings));
    let record = store
        .match_record(minotty_store::MatchId(m.id))
        .await
        .unwrap()
        .unwrap();
    let json = record.settings.expect("stored settings");
    assert!(
        json.contains("Tetrs") && json.contains("\"stock\":2"),
        "{json}"
    );
}
