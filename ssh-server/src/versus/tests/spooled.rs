//! The match recorder and the spool: with the database gone at shutdown, matches are spooled
//! at once instead of retried and then logged as lost.

use std::time::Duration;

use minotty_engine::versus::MatchKind;

use minotty_store::spool::{Record, Spool, SpoolLimits};
use minotty_store::{MatchPlayer, NewMatch};

fn m(seed: u32) -> NewMatch {
    NewMatch {
        kind: MatchKind::Race,
        ranked: false,
        room: "Z9QX".into(),
        seed,
        started_at: 10,
        ended_at: 20,
        players: vec![MatchPlayer {
            seat: 0,
            player: None,
            name: "p0".into(),
            place: 1,
            kos: 0,
            forfeited: false,
            lines: 40,
            pieces: 100,
            attack_sent: 0,
            garbage_received: 0,
            time_ms: 60_000,
            rating: None,
            replay: None,
            bot: None,
            replay_check: None,
        }],
        settings: None,
    }
}

#[tokio::test]
async fn at_shutdown_the_recorder_spools_what_the_database_does_not_take() {
    let (dir, store) = super::temp_store().await;
    let spool = Spool::open(&dir.path().join("spool"), SpoolLimits::default()).expect("spool");
    store.close().await;
    tokio::time::pause();
    let recorder = super::super::record::Recorder::spawn(store.clone(), Some(spool.clone()));
    for seed in 0..3 {
        recorder.record(m(seed));
    }
    // Patience to spare: every match is given up on (no retries once finishing) and spooled.
    let given_up = recorder.finish(Duration::from_secs(600)).await;
    assert_eq!(given_up, 3);
    assert_eq!(spool.len(), 3);
    let mut seeds: Vec<u32> = spool
        .pending()
        .expect("listed")
        .iter()
        .map(|p| match spool.read(p).expect("read").expect("decodes") {
            Record::Match(m) => m.seed,
            Record::Game(_) => panic!("a game in the spool"),
        })
        .collect();
    seeds.sort_unstable();
    assert_eq!(seeds, [0, 1, 2]);
}
