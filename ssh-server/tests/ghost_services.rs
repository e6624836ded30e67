//! `Request::Ghost` against a real throwaway database, without SSH: a player's own best, a
//! friend's best by name, a leaderboard entry; and the attacker's asks: someone else's private
//! game (refused on its record, no blob read), a name that is no name, a board with no ghosts.

#[path = "services_db/mod.rs"]
mod services_db;

use minotty_store::both;

use minotty_domain::{AccountRef, KeyFingerprint, PlayerName, Unranked, Verdict};
use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::GhostWanted;
use minotty_server::services::Services;
use minotty_store::{NewKey, Store};
use minotty_ui::{Request, Response};
use services_db::{KEY1, KEY2, ask, forty_lines, login, shared};
use sqlx::AnyPool;

/// Stores a bot's 40 lines game of `seed` for `player` with `verdict`; returns its id.
async fn store_game(
    store: &Store,
    player: minotty_domain::PlayerId,
    seed: u32,
    verdict: Verdict,
) -> i64 {
    let played = forty_lines(seed);
    let finished = minotty_store::FinishedGame {
        player,
        replay: played.replay,
        stats: played.stats,
        outcome: Some((played.reason, played.won)),
        started_at: 0,
        ended_at: 1_000,
    };
    let stored = store
        .insert_games(&[(finished, verdict)])
        .await
        .expect("stored");
    stored[0].id.0
}

fn failed(r: &Response) -> &str {
    match r {
        Response::GhostFailed { message } => message,
        other => panic!("a refusal, not {other:?}"),
    }
}

both!(a_ghost_is_your_best_a_friends_or_a_leaderboard_entry);
async fn a_ghost_is_your_best_a_friends_or_a_leaderboard_entry(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let key = |k: &str| NewKey {
        fingerprint: KeyFingerprint::parse(k).expect("a fingerprint"),
        algorithm: "ssh-ed25519".into(),
    };
    let ada = store
        .register(&PlayerName::parse("ada").expect("name"), &key(KEY1), 0)
        .await
        .expect("ada");
    let bob = store
        .register(&PlayerName::parse("bob").expect("name"), &key(KEY2), 0)
        .await
        .expect("bob");
    let sprint = GhostWanted::Best {
        mode: ModeKind::Sprint,
        ruleset: RulesetId::Standard,
    };
    let shared = shared(&store);
    let me = AccountRef {
        id: ada.id,
        name: "ada".into(),
    };
    let (mut s, mut rx) = Services::new(&shared, login(Some(KEY1), Some(me)));
    // No best yet.
    let r = ask(&mut s, &mut rx, Request::Ghost(sprint.clone())).await;
    assert!(failed(&r).contains("no 40 lines best"), "{r:?}");
    // Ada's best, judged as the writer would judge it.
    let played = forty_lines(7);
    let verdict = minotty_domain::judge(
        &played.replay,
        &played.stats,
        Some((played.reason, played.won)),
    );
    assert!(matches!(verdict, Verdict::Ranked { .. }));
    let best = store_game(&store, ada.id, 7, verdict.clone()).await;
    let Response::Ghost {
        game,
        player,
        replay,
    } = ask(&mut s, &mut rx, Request::Ghost(sprint.clone())).await
    else {
        panic!("ada races her best");
    };
    assert_eq!((game, player.as_str()), (best, "ada"));
    assert_eq!(replay.seed, played.replay.seed);
    // Bob's best, by name, and as a leaderboard entry.
    let bobs = store_game(&store, bob.id, 8, {
        let p = forty_lines(8);
        minotty_domain::judge(&p.replay, &p.stats, Some((p.reason, p.won)))
    })
    .await;
    let by_name = GhostWanted::Player {
        name: "bob".into(),
        mode: ModeKind::Sprint,
        ruleset: RulesetId::Standard,
    };
    let Response::Ghost { game, player, .. } = ask(&mut s, &mut rx, Request::Ghost(by_name)).await
    else {
        panic!("bob's best by name");
    };
    assert_eq!((game, player.as_str()), (bobs, "bob"));
    let Response::Ghost { game, .. } =
        ask(&mut s, &mut rx, Request::Ghost(GhostWanted::Game(bobs))).await
    else {
        panic!("bob's leaderboard entry");
    };
    assert_eq!(game, bobs);
    // The attacker's asks. Bob's game that is on no leaderboard: refused on its record.
    let private = store_game(&store, bob.id, 9, Verdict::Unranked(Unranked::Unfinished)).await;
    let reads = store.replay_reads();
    let r = ask(&mut s, &mut rx, Request::Ghost(GhostWanted::Game(private))).await;
    assert_eq!(failed(&r), "no such game");
    assert_eq!(store.replay_reads(), reads, "no blob read for a refusal");
    for name in ["", "nobody", "\u{1b}[2J", &"x".repeat(10_000)] {
        let wanted = GhostWanted::Player {
            name: name.to_owned(),
            mode: ModeKind::Sprint,
            ruleset: RulesetId::Standard,
        };
        let r = ask(&mut s, &mut rx, Request::Ghost(wanted)).await;
        assert_eq!(failed(&r), "no such player");
    }
    let marathon = GhostWanted::Best {
        mode: ModeKind::Marathon,
        ruleset: RulesetId::Standard,
    };
    let r = ask(&mut s, &mut rx, Request::Ghost(marathon)).await;
    assert!(failed(&r).contains("only in 40 lines and ultra"), "{r:?}");
    let r = ask(&mut s, &mut rx, Request::Ghost(GhostWanted::Game(i64::MAX))).await;
    assert_eq!(failed(&r), "no such game");
    // A guest has no best, but may race a leaderboard entry.
    let (mut guest, mut guest_rx) = Services::new(&shared, login(None, None));
    let r = ask(&mut guest, &mut guest_rx, Request::Ghost(sprint)).await;
    assert!(failed(&r).contains("register"), "{r:?}");
    assert!(matches!(
        ask(
            &mut guest,
            &mut guest_rx,
            Request::Ghost(GhostWanted::Game(best))
        )
        .await,
        Response::Ghost { .. }
    ));
}
