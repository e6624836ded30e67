//! The replay quota: an account storing many large games keeps at most `REPLAY_QUOTA` bytes of
//! replays (its oldest games that are no best go first), its bests are kept whatever they
//! hold, every deletion is reported, and other accounts are not touched.

use std::collections::BTreeMap;

use minotty_domain::{GameId, Period, Unranked, Verdict};
use minotty_engine::{Button, Input, ModeKind};
use minotty_store::{
    Account, Backend, FinishedGame, PRUNE_EVERY, QUOTA_CHECK_BYTES, QuotaCut, Store,
};
use sqlx::AnyPool;

use crate::support::{DAY, NOW, player, ranked, stats, store};

/// A 40-lines game of `who` ending at `at` in `time_ms`, ranked (or unranked when `!ranked`),
/// whose replay holds `inputs` more inputs (two bytes each).
fn big(
    who: &Account,
    at: i64,
    time_ms: u64,
    ranked_game: bool,
    inputs: u64,
) -> (FinishedGame, Verdict) {
    let (mut game, verdict) = ranked(who, ModeKind::Sprint, stats(time_ms, 0, 40, 100, 0), at);
    game.replay
        .inputs
        .extend((1..=inputs).map(|t| (t, Input::Press(Button::Left))));
    let verdict = if ranked_game {
        verdict
    } else {
        Verdict::Unranked(Unranked::GoalMissed)
    };
    (game, verdict)
}

/// The ids and replay sizes of `who`'s stored games, counted by the database.
async fn replays(pool: &AnyPool, store: &Store, who: &Account) -> BTreeMap<i64, i64> {
    let sql = match store.backend() {
        Backend::Sqlite => "SELECT id, length(replay) FROM games WHERE player_id = $1",
        Backend::Postgres => {
            "SELECT id, octet_length(replay)::BIGINT FROM games WHERE player_id = $1"
        }
    };
    let rows: Vec<(i64, i64)> = sqlx::query_as(sql)
        .bind(who.id.0)
        .fetch_all(pool)
        .await
        .expect("replay sizes");
    rows.into_iter().collect()
}

async fn bytes(pool: &AnyPool, store: &Store, who: &Account) -> i64 {
    replays(pool, store, who).await.values().sum()
}

/// Games the store said it deleted (older ones, and the one stored when it went too).
fn reported(cut: Option<QuotaCut>) -> u64 {
    cut.map_or(0, |q| u64::from(q.removed) + u64::from(q.this_game))
}

const QUOTA: u64 = 1 << 20;

both!(an_account_storing_many_large_games_stays_under_its_replay_quota);
async fn an_account_storing_many_large_games_stays_under_its_replay_quota(pool: AnyPool) {
    let store = store(pool.clone()).await.with_replay_quota(QUOTA);
    let t0 = NOW - 10 * DAY;
    // Another account's four large games, well under the quota.
    let ada = player(&store, "ada", 1).await;
    for i in 0..4 {
        store
            .insert_games(&[big(&ada, t0 + i, 70_000, false, 50_000)])
            .await
            .expect("stores");
    }
    let ada_before = replays(&pool, &store, &ada).await;
    assert_eq!(ada_before.len(), 4);

    // The attacker: a best first, then large games one at a time (about 100 KiB each, so
    // each checks the quota), ranked worse ones and unranked ones in turn.
    let mallory = player(&store, "mallory", 2).await;
    let best = store
        .insert_games(&[big(&mallory, t0, 60_000, true, 50_000)])
        .await
        .expect("stores")[0]
        .id;
    let mut stored = 1;
    let mut told = 0;
    for i in 1..=40 {
        let game = big(&mallory, t0 + i * 1_000, 90_000, i % 2 == 0, 50_000);
        let s = store.insert_games(&[game]).await.expect("stores");
        stored += 1;
        told += reported(s[0].quota);
        assert!(
            !s[0].quota.is_some_and(|q| q.this_game),
            "the newest is kept"
        );
        let held = bytes(&pool, &store, &mallory).await;
        assert!(held <= QUOTA as i64, "game {i}: {held} bytes held");
    }
    // A batch of twenty at once.
    let batch: Vec<_> = (1..=20)
        .map(|i| big(&mallory, t0 + DAY + i * 1_000, 90_000, false, 50_000))
        .collect();
    let s = store.insert_games(&batch).await.expect("stores");
    stored += s.len() as u64;
    told += s.iter().map(|g| reported(g.quota)).sum::<u64>();
    let held = replays(&pool, &store, &mallory).await;
    let total: i64 = held.values().sum();
    assert!(total <= QUOTA as i64, "{total} bytes after the batch");
    assert!(total > QUOTA as i64 / 2, "filled, not emptied: {total}");
    // Nothing went unreported.
    assert_eq!(told, stored - held.len() as u64);
    assert!(told >= 40, "{told} deleted");

    // Small games are checked at the prune's turns: between two checks fewer than
    // 2 * PRUNE_EVERY of them, each under QUOTA_CHECK_BYTES, can pass the quota.
    let small_inputs = 4_000; // about 8 KiB
    let mut most = 0;
    for i in 1..=100 {
        let game = big(
            &mallory,
            t0 + 2 * DAY + i * 1_000,
            90_000,
            false,
            small_inputs,
        );
        let s = store.insert_games(&[game]).await.expect("stores");
        stored += 1;
        told += reported(s[0].quota);
        most = most.max(bytes(&pool, &store, &mallory).await);
    }
    let slack = 2 * i64::from(PRUNE_EVERY) * (2 * small_inputs as i64 + 64);
    assert!(slack < QUOTA_CHECK_BYTES as i64 * 2 * i64::from(PRUNE_EVERY));
    assert!(most <= QUOTA as i64 + slack, "{most} bytes at most");
    let held = replays(&pool, &store, &mallory).await;
    assert_eq!(told, stored - held.len() as u64);

    // The best and its replay survive, and the board still leads to it.
    assert!(held.contains_key(&best.0));
    assert!(store.replay(best).await.expect("replay").is_some());
    let entry = store
        .rank_of(ModeKind::Sprint, Period::AllTime, NOW, mallory.id)
        .await
        .expect("rank")
        .expect("on the board");
    assert_eq!(entry.game, best);
    // The other account is untouched.
    assert_eq!(replays(&pool, &store, &ada).await, ada_before);
}

both!(a_game_only_bests_are_older_than_is_not_kept_and_says_so);
async fn a_game_only_bests_are_older_than_is_not_kept_and_says_so(pool: AnyPool) {
    // Room for one large replay and a half.
    let store = store(pool.clone()).await.with_replay_quota(150 << 10);
    let mallory = player(&store, "mallory", 2).await;
    let t0 = NOW - 10 * DAY;
    let best = store
        .insert_games(&[big(&mallory, t0, 60_000, true, 50_000)])
        .await
        .expect("stores");
    assert_eq!(best[0].quota, None);
    let best = best[0].id;
    // A worse game: the only older one is the best, so this one goes.
    let worse = store
        .insert_games(&[big(&mallory, t0 + 1_000, 90_000, true, 50_000)])
        .await
        .expect("stores");
    assert_eq!(
        worse[0].quota,
        Some(QuotaCut {
            removed: 0,
            this_game: true
        })
    );
    assert_eq!(store.game(worse[0].id).await.expect("reads"), None);
    // A new best is kept even over the quota; the older best it beat is then the one to go.
    let better = store
        .insert_games(&[big(&mallory, t0 + 2_000, 50_000, true, 50_000)])
        .await
        .expect("stores");
    assert_eq!(
        better[0].quota,
        Some(QuotaCut {
            removed: 1,
            this_game: false
        })
    );
    let held = replays(&pool, &store, &mallory).await;
    assert_eq!(held.keys().copied().collect::<Vec<_>>(), [better[0].id.0]);
    assert!(store.game(GameId(best.0)).await.expect("reads").is_none());
    assert!(store.replay(better[0].id).await.expect("replay").is_some());
}
