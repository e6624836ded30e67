//! Match replays in the store: every seat's replay and the recorder's check of it stored with
//! the match and read back whole; the match's record (who sat in it) read without the
//! replays; a match found again by its room and seed.

use minotty_domain::{KeyFingerprint, PlayerName};
use minotty_engine::versus::MatchKind;
use minotty_engine::{Button, Game, GameConfig, Input, Mode, Replay};
use minotty_store::both;
use minotty_store::{MatchId, MatchPlayer, NewKey, NewMatch, Store, StoredMatch, UnixMs};
use sqlx::AnyPool;

const NOW: UnixMs = 1_709_212_455_678;

async fn store(pool: AnyPool) -> Store {
    Store::from_pool(pool).await.expect("store")
}

/// A short real game on `seed`: `drops` hard drops.
fn played(seed: u32, drops: usize) -> Replay {
    let config = GameConfig {
        mode: Mode::custom(0, true, None),
        ..GameConfig::default()
    };
    let mut game = Game::new(config, seed);
    let mut t = 0;
    for _ in 0..drops {
        t += 40;
        game.update(t, Some(Input::Press(Button::HardDrop)));
        t += 40;
        game.update(t, Some(Input::Release(Button::HardDrop)));
    }
    game.replay()
}

fn seat(seat: u32, replay: Option<&Replay>, check: &str) -> MatchPlayer {
    MatchPlayer {
        seat,
        player: None,
        name: format!("p{seat}"),
        place: seat + 1,
        kos: 0,
        forfeited: false,
        lines: 0,
        pieces: 3 + seat,
        attack_sent: 0,
        garbage_received: 0,
        time_ms: 1_000,
        rating: None,
        replay: replay.map(Replay::to_bytes),
        bot: None,
        replay_check: Some(check.into()),
    }
}

both!(a_match_of_eight_keeps_every_replay_and_its_check);
async fn a_match_of_eight_keeps_every_replay_and_its_check(pool: AnyPool) {
    let store = store(pool).await;
    let key = NewKey {
        fingerprint: KeyFingerprint::parse(&format!("SHA256:{:0>43}", "mr1")).expect("key"),
        algorithm: "ssh-ed25519".into(),
    };
    let ann = store
        .register(&PlayerName::parse("ann").expect("name"), &key, NOW)
        .await
        .expect("registers");
    let replays: Vec<Replay> = (0..8).map(|s| played(99, 3 + s)).collect();
    let mut players: Vec<MatchPlayer> = (0..8u32)
        .map(|s| seat(s, Some(&replays[s as usize]), "verified"))
        .collect();
    players[0].player = Some(ann.id);
    // A seat whose session ended before it sent its replay, and one that did not verify.
    players[6] = seat(6, None, "missing");
    players[7].replay_check = Some("unverified: of another seed".into());
    let m = NewMatch {
        kind: MatchKind::Battle,
        ranked: false,
        room: "K7PQ3M".into(),
        seed: 99,
        started_at: NOW - 60_000,
        ended_at: NOW,
        players: players.clone(),
        settings: None,
    };
    let id = store.record_match(&m).await.expect("stored");
    let stored = store.match_players(id).await.expect("read");
    assert_eq!(stored, players);
    for (s, p) in stored.iter().enumerate().take(6) {
        let back = Replay::from_bytes(p.replay.as_deref().expect("replay")).expect("decodes");
        assert_eq!(back, replays[s], "seat {s}");
    }
    assert_eq!(stored[6].replay, None);
    assert_eq!(
        store.match_record(id).await.expect("record"),
        Some(StoredMatch {
            id,
            kind: MatchKind::Battle,
            ranked: false,
            room: "K7PQ3M".into(),
            seed: 99,
            started_at: NOW - 60_000,
            ended_at: NOW,
            players: vec![ann.id],
            settings: None,
        })
    );
    assert_eq!(
        store.match_record(MatchId(id.0 + 1)).await.expect("read"),
        None
    );
    assert_eq!(
        store.match_by_room_seed("K7PQ3M", 99).await.expect("read"),
        Some(id)
    );
    assert_eq!(
        store.match_by_room_seed("K7PQ3M", 98).await.expect("read"),
        None
    );
    assert_eq!(
        store.match_by_room_seed("OTHER1", 99).await.expect("read"),
        None
    );
    // A rematch in the same room on the same seed: the latest is found.
    let again = store.record_match(&m).await.expect("stored");
    assert_eq!(
        store.match_by_room_seed("K7PQ3M", 99).await.expect("read"),
        Some(again)
    );
}

/// A match spooled by a version without replay checks still reads: unchecked.
#[test]
fn an_older_spooled_seat_reads_unchecked() {
    let old = r#"{"seat":0,"player":null,"name":"a","place":1,"kos":0,"forfeited":false,
        "lines":0,"pieces":0,"attack_sent":0,"garbage_received":0,"time_ms":0,"rating":null,
        "replay":null,"bot":null}"#;
    let seat: MatchPlayer = serde_json::from_str(old).expect("reads");
    assert_eq!(seat.replay_check, None);
}
