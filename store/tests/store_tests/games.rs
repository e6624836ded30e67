//! Storing finished games, their verdicts, and replay verification.

use minotty_domain::{Period, Rejected, Unranked, Verdict, verify_replay};
use minotty_engine::{EndReason, Input, Mode, ModeKind, Stat};
use minotty_store::Page;
use sqlx::AnyPool;

use crate::support::{NOW, judged, played, player, store};

both!(a_finished_game_is_stored_with_its_stats_and_replay);
async fn a_finished_game_is_stored_with_its_stats_and_replay(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let game = played(&alice, Mode::sprint(), 7, 1000);
    assert_eq!(game.outcome, Some((EndReason::Limit(Stat::Lines), true)));
    let verdict = game.judge();
    assert!(matches!(verdict, Verdict::Ranked { key } if key == game.stats.time as i64));

    let stored = store
        .insert_games(&[(game.clone(), verdict.clone())])
        .await
        .expect("inserts");
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].verdict, verdict);
    assert_eq!(stored[0].improved, Period::ALL);

    let record = store
        .game(stored[0].id)
        .await
        .expect("query")
        .expect("stored");
    assert_eq!(record.player, alice.id);
    assert_eq!(record.mode, ModeKind::Sprint);
    assert_eq!(record.seed, 7);
    assert_eq!(record.ruleset_version, game.replay.version);
    assert_eq!(
        (record.started_at, record.ended_at),
        (game.started_at, game.ended_at)
    );
    assert_eq!(record.outcome, "won");
    assert_eq!(
        (record.verdict.as_str(), record.verdict_note),
        ("ranked", None)
    );
    // Every stat is a column except the pieces by type, which the replay reproduces.
    assert!(game.stats.by_piece.iter().sum::<u32>() > 0);
    let columns = minotty_engine::Stats {
        by_piece: [0; 7],
        ..game.stats
    };
    assert_eq!(record.stats, columns);
    let replay = store
        .replay(stored[0].id)
        .await
        .expect("query")
        .expect("stored");
    assert_eq!(replay, game.replay);
    assert_eq!(replay.verify().expect("plays").stats, game.stats);

    let board = store
        .leaderboard(ModeKind::Sprint, Period::Today, NOW, Page::top(10))
        .await;
    let board = board.expect("query");
    assert_eq!(board.len(), 1);
    assert_eq!((board[0].rank, board[0].game), (1, stored[0].id));
    assert_eq!(board[0].time_ms, game.stats.time);
}

both!(history_lists_a_players_games_newest_first);
async fn history_lists_a_players_games_newest_first(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let bob = player(&store, "bob", 2).await;
    let mut games = Vec::new();
    for (i, seed) in [3, 4, 5].into_iter().enumerate() {
        let mut g = played(&alice, Mode::marathon(), seed, 8);
        g.ended_at = NOW + i as i64;
        games.push((g.clone(), g.judge()));
    }
    games.push((
        played(&bob, Mode::marathon(), 6, 8),
        Verdict::Unranked(Unranked::Unfinished),
    ));
    let stored = store.insert_games(&games).await.expect("inserts");
    let history = store.recent_games(alice.id, 2).await.expect("query");
    let ids: Vec<_> = history.iter().map(|g| g.id).collect();
    assert_eq!(ids, [stored[2].id, stored[1].id]);
    assert!(
        history
            .iter()
            .all(|g| g.outcome == "unfinished" && g.verdict == "unranked")
    );
    assert_eq!(
        history[0].verdict_note.as_deref(),
        Some("the game did not end")
    );
    assert_eq!(
        store.recent_games(bob.id, 10).await.expect("query").len(),
        1
    );
}

both!(a_tampered_replay_is_rejected_stored_and_kept_off_the_boards);
async fn a_tampered_replay_is_rejected_stored_and_kept_off_the_boards(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let honest = played(&alice, Mode::sprint(), 7, 1000);
    assert!(verify_replay(&honest.replay, &honest.stats).is_ok());

    // Claimed stats better than what the replay gives.
    let mut boasted = honest.clone();
    boasted.stats.time -= 1_000;
    let verdict = boasted.judge();
    assert!(
        matches!(&verdict, Verdict::Rejected(Rejected::StatsDiffer { replayed, .. }) if **replayed == honest.stats),
        "{verdict:?}"
    );
    // Inputs edited after the fact: a different game.
    let mut edited = honest.clone();
    edited
        .replay
        .inputs
        .retain(|(_, i)| !matches!(i, Input::Press(minotty_engine::Button::Left)));
    assert!(matches!(edited.judge(), Verdict::Rejected(_)));
    // A replay from a future ruleset does not play.
    let mut future = honest.clone();
    future.replay.version += 1;
    assert!(matches!(
        future.judge(),
        Verdict::Rejected(Rejected::Unplayable(
            minotty_engine::ReplayError::RulesetVersion { .. }
        ))
    ));
    // A claimed outcome the replay does not reach.
    let mut claimed_win = played(&alice, Mode::sprint(), 7, 5);
    claimed_win.outcome = Some((EndReason::Limit(Stat::Lines), true));
    assert!(matches!(
        claimed_win.judge(),
        Verdict::Rejected(Rejected::OutcomeDiffers { .. })
    ));

    let stored = store
        .insert_games(&[(boasted.clone(), verdict)])
        .await
        .expect("inserts");
    assert!(stored[0].improved.is_empty());
    let record = store
        .game(stored[0].id)
        .await
        .expect("query")
        .expect("stored");
    assert_eq!(record.verdict, "rejected");
    assert!(record.verdict_note.expect("a note").contains("other stats"));
    for period in Period::ALL {
        let board = store
            .leaderboard(ModeKind::Sprint, period, NOW, Page::top(10))
            .await;
        assert!(board.expect("query").is_empty());
        let own = store
            .rank_of(ModeKind::Sprint, period, NOW, alice.id)
            .await
            .expect("query");
        assert_eq!(own, None);
    }
}

both!(games_that_cannot_rank_are_stored_unranked);
async fn games_that_cannot_rank_are_stored_unranked(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let custom = played(
        &alice,
        Mode::custom(3, true, Some((Stat::Lines, 4))),
        1,
        200,
    );
    assert_eq!(custom.judge(), Verdict::Unranked(Unranked::NoLeaderboard));
    let unfinished = played(&alice, Mode::sprint(), 2, 10);
    assert_eq!(unfinished.judge(), Verdict::Unranked(Unranked::Unfinished));
    let mut forfeit = played(&alice, Mode::ultra(), 3, 10);
    let t = forfeit.replay.end + 1;
    forfeit.replay.inputs.push((t, Input::Forfeit));
    forfeit.replay.end = t;
    let v = forfeit.replay.verify().expect("plays");
    (forfeit.stats, forfeit.outcome) = (v.stats, v.outcome);
    assert_eq!(forfeit.judge(), Verdict::Unranked(Unranked::Forfeit));
    let mut renamed = played(
        &alice,
        Mode::custom(0, true, Some((Stat::Lines, 1))),
        4,
        100,
    );
    renamed.replay.mode.kind = ModeKind::Sprint;
    assert_eq!(
        renamed.judge(),
        Verdict::Unranked(Unranked::NotThePreset("40l"))
    );

    let items = judged([custom, unfinished, forfeit, renamed]);
    let stored = store.insert_games(&items).await.expect("inserts");
    assert!(stored.iter().all(|s| s.improved.is_empty()));
    let outcomes: Vec<String> = store
        .recent_games(alice.id, 10)
        .await
        .expect("query")
        .into_iter()
        .map(|g| format!("{}/{}", g.mode.id(), g.outcome))
        .collect();
    // All four end at the same time: newest first by id.
    assert_eq!(
        outcomes,
        ["40l/won", "ultra/forfeit", "40l/unfinished", "custom/won"]
    );
    let board = store
        .leaderboard(ModeKind::Sprint, Period::AllTime, NOW, Page::top(10))
        .await;
    assert!(board.expect("query").is_empty());
}
