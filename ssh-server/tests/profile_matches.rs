//! The profile lists the player's versus matches: two stored matches (a ranked battle and a
//! three-player race) are on it, newest first, from the player's seat.

#[path = "services_db/mod.rs"]
mod services_db;

use minotty_store::both;
use std::time::Duration;

use minotty_domain::{KeyFingerprint, PlayerId, PlayerName};
use minotty_engine::rating::Rating;
use minotty_engine::versus::MatchKind;
use minotty_server::services::Services;
use minotty_store::{MatchPlayer, NewKey, NewMatch, Store, unix_now};
use minotty_ui::{Request, Response};
use services_db::{KEY1, login, shared};
use sqlx::AnyPool;

fn seat(seat: u32, player: Option<PlayerId>, name: &str, place: u32) -> MatchPlayer {
    MatchPlayer {
        seat,
        player,
        name: name.into(),
        place,
        kos: 0,
        forfeited: false,
        lines: 10,
        pieces: 50,
        attack_sent: 12,
        garbage_received: 4,
        time_ms: 60_000,
        rating: None,
        replay: None,
        bot: None,
        replay_check: None,
    }
}

fn rating(r: f64) -> Rating {
    Rating {
        rating: r,
        ..Rating::default()
    }
}

both!(the_profile_lists_the_players_versus_matches);
async fn the_profile_lists_the_players_versus_matches(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(&store);
    let (mut s, mut rx) = Services::new(&shared, login(Some(KEY1), None));
    s.account.start().await;
    let mut ask = async |request: Request| {
        s.handle(request);
        tokio::time::timeout(Duration::from_secs(10), rx.recv())
            .await
            .expect("an answer in time")
            .expect("the channel is open")
    };
    let signed_in = ask(Request::Register { name: "Ada".into() }).await;
    assert!(
        matches!(signed_in, Response::SignedIn { .. }),
        "{signed_in:?}"
    );
    let ada = store
        .account_by_key(&KeyFingerprint::parse(KEY1).expect("fp"), unix_now())
        .await
        .expect("query")
        .expect("registered")
        .id;
    let bob = store
        .register(
            &PlayerName::parse("bob").expect("name"),
            &NewKey {
                fingerprint: KeyFingerprint::parse(&format!("SHA256:{:0>43}", "b")).expect("fp"),
                algorithm: "ssh-ed25519".into(),
            },
            unix_now(),
        )
        .await
        .expect("registers")
        .id;
    // Before: no match, none listed.
    let Response::Profile(before) = ask(Request::Profile).await else {
        panic!("a profile");
    };
    assert!(before.matches.is_empty());

    let t = unix_now() - 60_000;
    let mut won = seat(0, Some(ada), "Ada", 1);
    won.rating = Some((rating(1500.0), rating(1514.2)));
    let mut lost = seat(1, Some(bob), "bob", 2);
    lost.rating = Some((rating(1500.0), rating(1485.8)));
    store
        .record_match(&NewMatch {
            kind: MatchKind::Battle,
            ranked: true,
            room: "QUICK1".into(),
            seed: 1,
            started_at: t - 60_000,
            ended_at: t,
            players: vec![won, lost],
            settings: None,
        })
        .await
        .expect("stored");
    store
        .record_match(&NewMatch {
            kind: MatchKind::Race,
            ranked: false,
            room: "ROOM22".into(),
            seed: 2,
            started_at: t,
            ended_at: t + 30_000,
            players: vec![
                seat(0, Some(bob), "bob", 1),
                seat(1, None, "guest7", 3),
                seat(2, Some(ada), "Ada", 2),
            ],
            settings: None,
        })
        .await
        .expect("stored");

    let Response::Profile(profile) = ask(Request::Profile).await else {
        panic!("a profile");
    };
    let lines: Vec<(&str, &str, &str)> = profile
        .matches
        .iter()
        .map(|m| (m.kind.as_str(), m.result.as_str(), m.outcome.as_str()))
        .collect();
    assert_eq!(
        lines,
        [
            ("race", "2nd of 3", "unranked"),
            ("battle", "won vs bob", "+14 rating"),
        ]
    );
    assert_eq!(profile.matches[0].ended_at, t + 30_000);
}
