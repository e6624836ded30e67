//! TBP bots playing in real time (`minotty_server::tbp::play_live`), as a room runs them: the
//! clock runs while the bot thinks and garbage arrives on a channel.

mod common;

use std::time::Duration;

use common::{BOT, assert_life_cycle, launch, reaped, recorded, settings};
use minotty_engine::{EndReason, EventKind, Game, GameConfig, Input, Mode};
use minotty_server::tbp::{Forfeit, Live, LiveEnd, TbpBot, play_live};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep};
use tokio_util::sync::CancellationToken;

fn game(mode: Mode, seed: u32) -> Game {
    Game::new(
        GameConfig {
            mode,
            ..GameConfig::default()
        },
        seed,
    )
}

/// Plays `game` live with `bot` at `min_piece` per piece; `attacks` lines of garbage arrive
/// one every 500 ms, and the game is stopped after `stop_after`.
async fn run(
    bot: &mut TbpBot,
    game: &mut Game,
    min_piece: Duration,
    attacks: Vec<u8>,
    stop_after: Duration,
) -> (LiveEnd, Vec<EventKind>, Duration) {
    let (tx, mut rx) = mpsc::channel(16);
    let stop = CancellationToken::new();
    let stopper = stop.clone();
    tokio::spawn(async move {
        let started = Instant::now();
        for lines in attacks {
            sleep(Duration::from_millis(500)).await;
            let _ = tx.send(lines).await;
        }
        tokio::time::sleep_until(started + stop_after).await;
        stopper.cancel();
    });
    let start = Instant::now();
    let mut events = Vec::new();
    let live = Live {
        game,
        start,
        garbage: &mut rx,
        stop: &stop,
        min_piece,
        preview: 5,
    };
    let end = play_live(bot, live, |e| events.extend(e.iter().map(|e| e.kind))).await;
    (end, events, start.elapsed())
}

#[tokio::test]
async fn minotty_bot_plays_live_while_garbage_arrives() {
    let mut bot = launch(BOT, settings(2000)).await.expect("starts");
    let pid = bot.pid().expect("a pid");
    let mut g = game(Mode::marathon(), 31);
    let (end, events, took) = run(
        &mut bot,
        &mut g,
        Duration::from_millis(80),
        vec![2; 8],
        Duration::from_millis(4500),
    )
    .await;
    assert_eq!(end, LiveEnd::Stopped, "{:?}", g.board());
    assert!(took < Duration::from_millis(5000), "{took:?}");
    let stats = *g.stats();
    // About one piece per 80 ms for 4.5 s.
    assert!(stats.pieces >= 25, "{} pieces", stats.pieces);
    let queued = events
        .iter()
        .filter(|k| matches!(k, EventKind::GarbageQueued { .. }))
        .count();
    assert_eq!(queued, 8, "every attack reached the game");
    assert!(stats.garbage_received >= 8, "{stats:?}");
    let locks = events
        .iter()
        .filter(|k| matches!(k, EventKind::Lock { .. }))
        .count();
    assert_eq!(locks as u32, stats.pieces, "every event went out");
    // An ordinary game: its replay (garbage included) verifies to the same result.
    let verified = g.replay().verify().expect("verifies");
    assert_eq!(verified.stats.pieces, stats.pieces);
    assert_eq!(verified.stats.garbage_received, stats.garbage_received);
    assert!(bot.finish().await);
    assert!(reaped(pid).await);
}

#[tokio::test]
async fn a_bot_that_hangs_live_forfeits_in_time() {
    let mut bot = launch(&format!("{BOT} --fault hang@5"), settings(300))
        .await
        .expect("starts");
    let pid = bot.pid().expect("a pid");
    let mut g = game(Mode::marathon(), 32);
    let (end, _, took) = run(
        &mut bot,
        &mut g,
        Duration::from_millis(50),
        vec![],
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(
        end,
        LiveEnd::Forfeit(Forfeit::Timeout("suggestion", Duration::from_millis(300)))
    );
    assert_eq!(g.outcome(), Some((EndReason::Forfeit, false)));
    assert_eq!(g.stats().pieces, 5);
    // Five pieces at 50 ms, then the 300 ms the sixth was given.
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(g.replay().verify().is_ok());
    bot.finish().await;
    assert!(reaped(pid).await);
}

#[tokio::test]
async fn stopping_a_live_game_does_not_wait_for_the_bot() {
    let mut bot = launch(&format!("{BOT} --fault hang@0"), settings(10_000))
        .await
        .expect("starts");
    let pid = bot.pid().expect("a pid");
    let mut g = game(Mode::marathon(), 33);
    let (end, _, took) = run(
        &mut bot,
        &mut g,
        Duration::ZERO,
        vec![],
        Duration::from_millis(200),
    )
    .await;
    assert_eq!(end, LiveEnd::Stopped);
    assert!(took < Duration::from_millis(600), "{took:?}");
    assert!(!g.is_over());
    // The room goes away with the bot still thinking.
    drop(bot);
    assert!(reaped(pid).await);
}

#[tokio::test]
async fn answers_for_a_piece_that_locked_meanwhile_are_not_played() {
    // 20G with a 450 ms lock delay: every piece locks before this bot's answer (600 ms).
    let dir = tempfile::tempdir().expect("a directory");
    let log = dir.path().join("to-bot.jsonl");
    let command = recorded(&format!("{BOT} --fault slow"), &log);
    let mut bot = launch(&command, settings(2000)).await.expect("starts");
    let pid = bot.pid().expect("a pid");
    let mut g = game(Mode::master(), 34);
    let (end, _, _) = run(
        &mut bot,
        &mut g,
        Duration::ZERO,
        vec![],
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(end, LiveEnd::GameOver);
    let (reason, won) = g.outcome().expect("over");
    assert!(!won);
    assert!(
        matches!(reason, EndReason::BlockOut | EndReason::LockOut),
        "{reason:?}"
    );
    assert!(g.stats().pieces >= 5);
    // No move was ever pressed: each answer came for a piece already gone.
    assert!(
        g.inputs()
            .iter()
            .all(|(_, i)| !matches!(i, Input::Press(_) | Input::Release(_))),
        "{:?}",
        g.inputs()
    );
    bot.finish().await;
    assert!(reaped(pid).await);
    // Each stale answer: the bot was stopped and started afresh, never told to play.
    let [starts, stops, suggests, plays, _] = assert_life_cycle(&log);
    assert_eq!(plays, 0);
    assert!(
        suggests >= 5 && starts >= suggests,
        "{starts} starts, {suggests} suggests"
    );
    assert_eq!(stops, starts);
}
