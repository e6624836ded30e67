//! Games recorded under an earlier ruleset version (issue 26 moved every ruleset to version 2)
//! still verify and rank: the engine plays each replay by the version it names. The replays
//! here were written by the engine before the change (`engine/tests/data/v1_replays.txt`).

use minotty_domain::{Period, Verdict};
use minotty_engine::{ModeKind, Replay, RulesetId};
use minotty_store::{Board, FinishedGame, Page, Store};
use sqlx::AnyPool;

use crate::support::{NOW, player};

const RECORDED: &str = include_str!("../../../engine/tests/data/v1_replays.txt");

/// The recorded version 1 replays that won a 40-lines game (and so rank).
fn won_sprints() -> Vec<(String, Replay)> {
    RECORDED
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains("outcome=Some((Limit(Lines), true))"))
        .map(|line| {
            let mut parts = line.split('\t');
            let name = parts.next().expect("name").to_string();
            let hex = parts.next().expect("replay");
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
                .collect();
            (name, Replay::from_bytes(&bytes).expect("a replay"))
        })
        .collect()
}

both!(version_1_games_stored_before_the_change_still_verify_and_rank);
async fn version_1_games_stored_before_the_change_still_verify_and_rank(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let ada = player(&store, "ada", 1).await;
    let games = won_sprints();
    assert!(games.len() >= 2, "{} recorded wins", games.len());
    let mut items = Vec::new();
    for (name, replay) in games {
        assert_eq!(
            (replay.ruleset, replay.version, replay.mode.kind),
            (RulesetId::Standard, 1, ModeKind::Sprint),
            "{name}"
        );
        let played = replay.play().expect("version 1 still plays");
        let game = FinishedGame {
            player: ada.id,
            stats: *played.stats(),
            outcome: played.outcome(),
            replay,
            started_at: NOW - 200_000,
            ended_at: NOW,
        };
        // Judged now, by the engine of version 2: re-simulated under version 1, ranked.
        let verdict = game.judge();
        assert!(
            matches!(verdict, Verdict::Ranked { .. }),
            "{name}: {verdict:?}"
        );
        items.push((game, verdict));
    }
    let stored = store.insert_games(&items).await.expect("inserts");
    // Read back from the database, the replay still names version 1 and still verifies.
    for (s, (game, verdict)) in stored.iter().zip(&items) {
        let back = store.replay(s.id).await.expect("query").expect("kept");
        assert_eq!(back, game.replay);
        let again = FinishedGame {
            replay: back,
            ..game.clone()
        };
        assert_eq!(&again.judge(), verdict);
    }
    let board = store
        .leaderboard(
            Board::new(ModeKind::Sprint, RulesetId::Standard),
            Period::AllTime,
            NOW,
            Page::top(10),
        )
        .await
        .expect("query");
    assert_eq!(board.len(), 1, "ada's best");
    assert_eq!(board[0].name.as_str(), "ada");
}
