//! A match's room settings stored with it (migration 0017) and read back with its record, on
//! both databases: the JSON the room wrote, none for a match without (an older room, an older
//! spool), none for one past the bound.

use minotty_engine::versus::MatchKind;
use minotty_store::both;
use minotty_store::{MatchPlayer, NewMatch, Store, UnixMs};
use sqlx::AnyPool;

const NOW: UnixMs = 1_709_212_455_678;

fn seat(seat: u32) -> MatchPlayer {
    MatchPlayer {
        seat,
        player: None,
        name: format!("p{seat}"),
        place: seat + 1,
        kos: 0,
        forfeited: false,
        lines: 0,
        pieces: 3,
        attack_sent: 0,
        garbage_received: 0,
        time_ms: 1_000,
        rating: None,
        replay: None,
        bot: None,
        replay_check: None,
    }
}

fn a_match(settings: Option<String>) -> NewMatch {
    NewMatch {
        kind: MatchKind::Battle,
        ranked: false,
        room: "K7PQ3M".into(),
        seed: 7,
        started_at: NOW - 60_000,
        ended_at: NOW,
        players: vec![seat(0), seat(1)],
        settings,
    }
}

both!(a_match_keeps_its_settings);
async fn a_match_keeps_its_settings(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let json = r#"{"kind":"Battle","max_players":2,"limit":"None","series":{"first_to":3,"win_by":1,"stock":2},"game":{"ruleset":"Tetrs","start_level":5,"level_increase":true,"entry_ms":null,"preview":null,"handling":null,"ko_badges":true}}"#;
    let rows: [(Option<String>, Option<&str>); 3] = [
        (Some(json.to_owned()), Some(json)),
        (None, None),
        // Past the bound: stored as none.
        (Some("x".repeat(5000)), None),
    ];
    for (settings, want) in rows {
        let id = store
            .record_match(&a_match(settings))
            .await
            .expect("stored");
        let record = store.match_record(id).await.expect("read").expect("found");
        assert_eq!(record.settings.as_deref(), want);
    }
}

/// A match spooled by a version before settings were stored still reads: none.
#[test]
fn an_older_spooled_match_reads_without_settings() {
    let old = r#"{"kind":"Battle","ranked":false,"room":"K7PQ3M","seed":7,"started_at":0,
        "ended_at":1,"players":[]}"#;
    let m: NewMatch = serde_json::from_str(old).expect("reads");
    assert_eq!(m.settings, None);
}
