//! Snapshots: saved, listed newest first, deleted by their owner only, at most 20 a player
//! (the 21st replaces the oldest), labels sanitised and cut.

use minotty_bots::autoplay;
use minotty_domain::{MAX_LABEL_CHARS, MAX_SNAPSHOTS};
use minotty_engine::{Game, GameConfig, Mode, ModeKind, Snapshot};
use minotty_store::SnapshotId;
use sqlx::AnyPool;

use crate::support::{NOW, player, store};

/// A snapshot of a real game of `mode` after `pieces` pieces.
fn snapshot(mode: Mode, seed: u32, pieces: u32) -> Snapshot {
    let mut g = Game::new(
        GameConfig {
            mode,
            ..GameConfig::default()
        },
        seed,
    );
    autoplay(&mut g, pieces, 150);
    g.snapshot().expect("a piece in play")
}

both!(snapshots_are_saved_listed_newest_first_and_deleted_by_their_owner);
async fn snapshots_are_saved_listed_newest_first_and_deleted_by_their_owner(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let bob = player(&store, "bob", 2).await;
    let first = snapshot(Mode::marathon(), 1, 5);
    let second = snapshot(Mode::cheese(10), 2, 3);
    let (a, label) = store
        .save_snapshot(alice.id, "Marathon 0:05.0 0 lines", &first, NOW)
        .await
        .expect("saves");
    assert_eq!(label, "Marathon 0:05.0 0 lines");
    let (b, label) = store
        .save_snapshot(alice.id, "\x1b[2Jcheese\u{202e} dig\x07", &second, NOW + 1)
        .await
        .expect("saves");
    assert_eq!(
        label, "[2Jcheese dig",
        "control and format characters dropped"
    );
    let list = store.snapshots(alice.id).await.expect("lists");
    assert_eq!(
        list.iter().map(|s| s.id).collect::<Vec<_>>(),
        [b, a],
        "newest first"
    );
    assert_eq!(list[0].mode, ModeKind::Cheese);
    assert_eq!(list[0].snapshot, second);
    assert_eq!(list[0].created_at, NOW + 1);
    assert_eq!(
        list[1].snapshot, first,
        "the bytes decode to the same snapshot"
    );
    assert!(store.snapshots(bob.id).await.expect("lists").is_empty());

    assert!(
        !store.delete_snapshot(bob.id, a).await.expect("deletes"),
        "not bob's"
    );
    assert!(store.delete_snapshot(alice.id, a).await.expect("deletes"));
    assert!(!store.delete_snapshot(alice.id, a).await.expect("deletes"));
    assert!(
        !store
            .delete_snapshot(alice.id, SnapshotId(9999))
            .await
            .expect("deletes")
    );
    let list = store.snapshots(alice.id).await.expect("lists");
    assert_eq!(list.iter().map(|s| s.id).collect::<Vec<_>>(), [b]);
}

both!(a_player_keeps_at_most_twenty_and_the_next_replaces_the_oldest);
async fn a_player_keeps_at_most_twenty_and_the_next_replaces_the_oldest(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let bob = player(&store, "bob", 2).await;
    let s = snapshot(Mode::marathon(), 3, 2);
    store
        .save_snapshot(bob.id, "bob's", &s, NOW)
        .await
        .expect("saves");
    let mut ids = Vec::new();
    for i in 0..(MAX_SNAPSHOTS as i64 + 15) {
        let (id, _) = store
            .save_snapshot(alice.id, &format!("save {i}"), &s, NOW + i)
            .await
            .expect("saves");
        ids.push(id);
        let kept = store.snapshots(alice.id).await.expect("lists");
        assert_eq!(kept.len(), (i as usize + 1).min(MAX_SNAPSHOTS));
        assert_eq!(kept[0].id, id, "the newest is always kept");
    }
    let kept: Vec<_> = store
        .snapshots(alice.id)
        .await
        .expect("lists")
        .into_iter()
        .map(|s| s.id)
        .collect();
    let newest: Vec<_> = ids.iter().rev().take(MAX_SNAPSHOTS).copied().collect();
    assert_eq!(kept, newest, "the oldest went first");
    assert_eq!(
        store.snapshots(bob.id).await.expect("lists").len(),
        1,
        "another player's are untouched"
    );
}

both!(long_or_empty_labels);
async fn long_or_empty_labels(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let s = snapshot(Mode::sprint(), 4, 1);
    let (_, label) = store
        .save_snapshot(alice.id, &"x".repeat(500), &s, NOW)
        .await
        .expect("saves");
    assert_eq!(label.chars().count(), MAX_LABEL_CHARS);
    let (_, label) = store
        .save_snapshot(alice.id, "\x1b\x07\u{200b}", &s, NOW)
        .await
        .expect("saves");
    assert_eq!(label, "snapshot");
}

both!(a_game_resumed_from_a_snapshot_is_stored_and_its_replay_checks_out);
async fn a_game_resumed_from_a_snapshot_is_stored_and_its_replay_checks_out(pool: AnyPool) {
    use minotty_domain::{Verdict, verify_replay};
    use minotty_engine::StartBoard;
    use minotty_store::FinishedGame;

    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let s = snapshot(Mode::cheese(12), 6, 4);
    let mut mode = Mode::custom(0, true, None);
    mode.start_board = StartBoard::Snapshot(Box::new(s.clone()));
    let mut game = Game::new(
        GameConfig {
            mode,
            ..GameConfig::default()
        },
        1,
    );
    let target = s.stats().pieces + 10;
    autoplay(&mut game, target, 150);
    let finished = FinishedGame {
        player: alice.id,
        replay: game.replay(),
        stats: *game.stats(),
        outcome: game.outcome(),
        started_at: NOW - 60_000,
        ended_at: NOW,
    };
    assert!(verify_replay(&finished.replay, &finished.stats).is_ok());
    let verdict = finished.judge();
    assert!(matches!(verdict, Verdict::Unranked(_)), "{verdict:?}");
    let stored = store
        .insert_games(&[(finished.clone(), verdict)])
        .await
        .expect("stores");
    let back = store
        .replay(stored[0].id)
        .await
        .expect("reads")
        .expect("a replay");
    assert_eq!(back, finished.replay, "the snapshot travels in the replay");
}
