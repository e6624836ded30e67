//! The profile's chart queries: a player's latest ranked games (oldest first) and their latest
//! games' pieces and time. (What the server draws from them, `charts::best_histories` and
//! `charts::pps`, is tested with these same games in `ssh-server/src/charts.rs`.)

use minotty_domain::{Unranked, Verdict};
use minotty_engine::{ModeKind, RulesetId};
use sqlx::AnyPool;

use crate::support::{NOW, player, ranked, ranked_under, stats, store};

/// The most games the server asks for (its `charts::HISTORY_GAMES`).
const HISTORY_GAMES: u32 = 1000;

both!(ranked_history_is_a_players_latest_ranked_games_oldest_first);
async fn ranked_history_is_a_players_latest_ranked_games_oldest_first(pool: AnyPool) {
    let store = store(pool).await;
    let ada = player(&store, "ada", 1).await;
    let bob = player(&store, "bob", 2).await;
    let minute = 60_000;
    let mut games = vec![
        ranked(&ada, ModeKind::Sprint, stats(90_000, 0, 40, 100, 0), NOW),
        ranked(
            &ada,
            ModeKind::Sprint,
            stats(80_000, 0, 40, 100, 0),
            NOW + 2 * minute,
        ),
        ranked(
            &ada,
            ModeKind::Marathon,
            stats(600_000, 9000, 50, 130, 3),
            NOW + minute,
        ),
        ranked_under(
            &ada,
            RulesetId::Tetrs,
            ModeKind::Sprint,
            stats(70_000, 0, 40, 100, 0),
            NOW + 3 * minute,
        ),
        ranked(&bob, ModeKind::Sprint, stats(50_000, 0, 40, 100, 0), NOW),
    ];
    // An unranked game of ada's is not in her history (but is in her pace).
    let (mut custom, _) = ranked(&ada, ModeKind::Sprint, stats(10_000, 0, 40, 100, 0), NOW);
    custom.ended_at = NOW + 4 * minute;
    games.push((custom, Verdict::Unranked(Unranked::Tuned)));
    let stored = store.insert_games(&games).await.expect("inserts");

    let history = store
        .ranked_history(ada.id, HISTORY_GAMES)
        .await
        .expect("query");
    let seen: Vec<(ModeKind, RulesetId, i64)> = history
        .iter()
        .map(|g| (g.mode, g.ruleset, g.ended_at))
        .collect();
    assert_eq!(
        seen,
        [
            (ModeKind::Sprint, RulesetId::Standard, NOW),
            (ModeKind::Marathon, RulesetId::Standard, NOW + minute),
            (ModeKind::Sprint, RulesetId::Standard, NOW + 2 * minute),
            (ModeKind::Sprint, RulesetId::Tetrs, NOW + 3 * minute),
        ]
    );
    assert_eq!(history[1].stats.score, 9000);
    assert_eq!(history[2].stats.time, 80_000);
    // The latest two only, still oldest first.
    let latest = store.ranked_history(ada.id, 2).await.expect("query");
    assert_eq!(latest, history[2..]);

    let pace = store.pace_history(ada.id, 100).await.expect("query");
    let ids: Vec<i64> = pace.iter().map(|g| g.id.0).collect();
    assert_eq!(
        ids,
        [
            stored[0].id.0,
            stored[2].id.0,
            stored[1].id.0,
            stored[3].id.0,
            stored[5].id.0
        ],
        "every game of ada's, oldest first"
    );
    assert_eq!((pace[1].pieces, pace[1].time_ms), (130, 600_000));
    let latest = store.pace_history(ada.id, 2).await.expect("query");
    assert_eq!(latest, pace[3..]);
    assert!(
        store
            .pace_history(bob.id, 0)
            .await
            .expect("query")
            .is_empty()
    );
}
