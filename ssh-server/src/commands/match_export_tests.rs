//! `replay mN --cast`: a versus match exported with every seat side by side; who may export it
//! (a ranked match anyone, another only its players), a missing match, and the cast's bounds.

use minotty_domain::{KeyFingerprint, PlayerName};
use minotty_engine::versus::MatchKind;
use minotty_engine::{Button, Game, GameConfig, Input, Mode, Replay};

use super::*;
use crate::cast;
use minotty_store::{MatchPlayer, NewKey, NewMatch};

const CLIENT: std::net::IpAddr = std::net::IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 9));

fn played(seed: u32, drops: u64) -> Replay {
    let config = GameConfig {
        mode: Mode::custom(0, true, None),
        ..GameConfig::default()
    };
    let mut game = Game::new(config, seed);
    for i in 0..drops {
        game.update(1000 * i + 900, Some(Input::Press(Button::HardDrop)));
        game.update(1000 * i + 950, Some(Input::Release(Button::HardDrop)));
    }
    game.replay()
}

fn seat(seat: u32, player: Option<PlayerId>, name: &str, replay: Option<Replay>) -> MatchPlayer {
    MatchPlayer {
        seat,
        player,
        name: name.into(),
        place: seat + 1,
        kos: 0,
        forfeited: false,
        lines: 0,
        pieces: 0,
        attack_sent: 0,
        garbage_received: 0,
        time_ms: 0,
        rating: None,
        replay: replay.as_ref().map(Replay::to_bytes),
        bot: None,
        replay_check: None,
    }
}

/// Match 1: ada vs a guest, unranked; match 2: the same, ranked. bob sat in neither.
async fn stored() -> (tempfile::TempDir, Store, PlayerId, PlayerId) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("minotty.db").display());
    let store = Store::open(&url).await.expect("the store");
    let key = |n: &str| NewKey {
        fingerprint: KeyFingerprint::parse(&format!("SHA256:{n:0>43}")).expect("fingerprint"),
        algorithm: "ssh-ed25519".into(),
    };
    let mut ids = Vec::new();
    for (name, k) in [("ada", "mk1"), ("bob", "mk2")] {
        let a = store
            .register(&PlayerName::parse(name).expect("name"), &key(k), 0)
            .await
            .expect("registers");
        ids.push(a.id);
    }
    for ranked in [false, true] {
        let m = NewMatch {
            kind: MatchKind::Battle,
            ranked,
            room: "K7PQ3M".into(),
            seed: 11,
            started_at: 0,
            ended_at: 10_000,
            players: vec![
                seat(0, Some(ids[0]), "ada", Some(played(11, 5))),
                seat(1, None, "guest", None),
            ],
            settings: None,
        };
        store.record_match(&m).await.expect("stored");
    }
    (dir, store, ids[0], ids[1])
}

async fn run(store: &Store, word: &str, caller: Option<PlayerId>) -> Result<String, Outcome> {
    let args = cast::parse(&[word, "--cast"]).map_err(Outcome::fail)?;
    let requester = Requester {
        caller,
        address: CLIENT.into(),
        budget: || Ok(()),
    };
    let mut out = Vec::new();
    let write = |chunk: Vec<u8>| {
        out.extend_from_slice(&chunk);
        std::future::ready(true)
    };
    export(
        args,
        Some(store),
        requester,
        CancellationToken::new(),
        Tuning::default(),
        write,
    )
    .await?;
    Ok(String::from_utf8(out).expect("text"))
}

#[tokio::test]
async fn a_match_exports_to_its_players_and_a_ranked_one_to_anyone() {
    // The server's export slots are one static: the exports' tests take turns.
    let _turn = super::tests::SERIAL.lock().await;
    let (_dir, store, ada, bob) = stored().await;
    let cast = run(&store, "m1", Some(ada)).await.expect("ada's match");
    let header = cast.lines().next().expect("a header");
    assert!(header.contains("versus match m1"), "{header}");
    assert!(cast.contains("MATCH REPLAY"), "the viewer's screen");
    assert!(
        cast.contains("NO REPLAY"),
        "the guest's seat, which sent none"
    );
    let frames = cast.lines().count() as u64;
    assert!(frames <= cast::MAX_FRAMES + 3, "{frames}");
    for caller in [None, Some(bob)] {
        let refused = run(&store, "m1", caller).await.unwrap_err();
        assert!(
            refused.stderr.contains("only its players"),
            "{}",
            refused.stderr
        );
    }
    assert!(run(&store, "M2", None).await.is_ok(), "ranked: anyone");
    let missing = run(&store, "m999", Some(ada)).await.unwrap_err();
    assert!(
        missing.stderr.contains("no match m999"),
        "{}",
        missing.stderr
    );
    for bad in ["m", "mx", "m-1", "m0", "m1x", "m\u{1b}[2J"] {
        let refused = run(&store, bad, Some(ada)).await.unwrap_err();
        assert!(
            refused.stderr.contains("is not a match ID") && !refused.stderr.contains('\u{1b}'),
            "{bad:?}: {}",
            refused.stderr
        );
    }
}
