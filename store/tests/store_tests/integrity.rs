//! Games that must not rank however well they went: a paused game of a timed mode, a game
//! ended by the input limit; and a replay over the input limit, which is never even judged.

use std::time::Duration;

use minotty_domain::{Period, Rejected, Unranked, Verdict};
use minotty_engine::{
    Button, EndReason, Game, GameConfig, Input, MAX_INPUTS, Mode, ModeKind, ReplayError,
};
use minotty_store::{FinishedGame, GameWriter, Page, WriteError, WriterConfig};
use sqlx::AnyPool;

use crate::support::{NOW, judged, played, player, store};

/// `game` with a pause marker after its `n`th input (at that input's time), re-checked to
/// play the same: a pause changes nothing in the rules.
fn paused(mut game: FinishedGame, n: usize) -> FinishedGame {
    let t = game.replay.inputs[n].0;
    game.replay.inputs.insert(n + 1, (t, Input::Pause));
    let v = game.replay.verify().expect("plays");
    assert_eq!((v.stats, v.outcome), (game.stats, game.outcome));
    game
}

both!(a_paused_timed_game_is_stored_but_not_ranked);
async fn a_paused_timed_game_is_stored_but_not_ranked(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let bob = player(&store, "bob", 2).await;
    let clean = played(&alice, Mode::sprint(), 7, 1000);
    assert!(matches!(clean.judge(), Verdict::Ranked { .. }));
    let sprint = paused(played(&bob, Mode::sprint(), 7, 1000), 20);
    assert_eq!(sprint.judge(), Verdict::Unranked(Unranked::Paused));
    let master = paused(played(&bob, Mode::master(), 3, 1000), 10);
    assert_eq!(master.judge(), Verdict::Unranked(Unranked::Paused));
    // Combo is ranked by its longest combo, without a clock: a pause there keeps it ranked.
    let combo = paused(played(&bob, Mode::combo(), 3, 1000), 10);
    assert!(
        matches!(combo.judge(), Verdict::Ranked { .. }),
        "{:?}",
        combo.judge()
    );

    let items = judged([clean, sprint]);
    let stored = store.insert_games(&items).await.expect("inserts");
    let record = store
        .game(stored[1].id)
        .await
        .expect("query")
        .expect("stored");
    assert_eq!(record.verdict, "unranked");
    assert_eq!(record.verdict_note.as_deref(), Some("the game was paused"));
    let replay = store
        .replay(stored[1].id)
        .await
        .expect("query")
        .expect("kept");
    assert!(replay.inputs.contains(&(replay.inputs[21].0, Input::Pause)));
    let board = store
        .leaderboard(ModeKind::Sprint, Period::AllTime, NOW, Page::top(10))
        .await
        .expect("query");
    assert_eq!(board.len(), 1, "only alice's unpaused game ranks");
}

/// A 40-lines game flooded with Left presses and releases up to the input limit.
fn flooded(player: &minotty_store::Account) -> FinishedGame {
    let mut game = Game::new(
        GameConfig {
            mode: Mode::sprint(),
            ..GameConfig::default()
        },
        9,
    );
    for i in 0..MAX_INPUTS {
        let b = Button::Left;
        let input = if i % 2 == 0 {
            Input::Press(b)
        } else {
            Input::Release(b)
        };
        game.update(i as u64 / 200, Some(input));
    }
    assert_eq!(game.outcome(), Some((EndReason::InputLimit, false)));
    FinishedGame {
        player: player.id,
        replay: game.replay(),
        stats: *game.stats(),
        outcome: game.outcome(),
        started_at: NOW - 1000,
        ended_at: NOW,
    }
}

both!(an_input_limit_game_is_unranked_and_a_replay_over_it_is_refused);
async fn an_input_limit_game_is_unranked_and_a_replay_over_it_is_refused(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let game = flooded(&alice);
    assert_eq!(game.judge(), Verdict::Unranked(Unranked::InputLimit));
    let stored = store
        .insert_games(&[(game.clone(), game.judge())])
        .await
        .expect("inserts");
    let record = store
        .game(stored[0].id)
        .await
        .expect("query")
        .expect("stored");
    assert_eq!(record.outcome, "input_limit");
    assert_eq!(
        record.verdict_note.as_deref(),
        Some("the game reached the input limit")
    );

    // One input more than a game can record: the judge refuses it unplayed, and the writer
    // does not even queue it.
    let mut over = game;
    let t = over.replay.end;
    over.replay.inputs.push((t, Input::Press(Button::Right)));
    assert_eq!(
        over.judge(),
        Verdict::Rejected(Rejected::Unplayable(ReplayError::TooManyInputs {
            count: MAX_INPUTS as u64 + 1
        }))
    );
    let config = WriterConfig {
        first_backoff: Duration::from_millis(10),
        ..WriterConfig::default()
    };
    let (writer, done) = GameWriter::spawn(store.clone(), config);
    let reply = writer.submit(over).await.expect("a reply");
    assert_eq!(reply, Err(WriteError::TooManyInputs(MAX_INPUTS + 1)));
    assert_eq!(writer.queued(), 0);
    drop(writer);
    done.await.expect("the writer stops");
    let games = store.recent_games(alice.id, 10).await.expect("query");
    assert_eq!(games.len(), 1, "only the capped game was stored");
}
