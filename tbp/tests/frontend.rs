//! The server's TBP frontend (`minotty_tbp::frontend`) against real bot processes: the real
//! `minotty-bot`, the same bot misbehaving on purpose (`--fault`), and tiny shell scripts.
//! Every test checks that the bot process is gone (killed and reaped) at the end.

mod common;

use std::time::{Duration, Instant};

use common::{BOT, assert_life_cycle, launch, reaped, recorded, settings};
use minotty_bots::{Weights, best_plan};
use minotty_engine::versus::{Match, MatchKind};
use minotty_engine::{Button, EndReason, EventKind, Game, GameConfig, Input, Time};
use minotty_tbp::TbpState;
use minotty_tbp::frontend::{BotSpec, Forfeit, TbpBot, TbpBots, TbpSettings};

/// How a harness match ended for the TBP bot.
#[derive(Debug)]
struct Outcome {
    forfeit: Option<Forfeit>,
    /// When the forfeit came, after the request that led to it.
    forfeit_after: Duration,
    bot_pieces: u32,
    game: Game,
    match_over: bool,
}

/// Plays a battle: player 0 is the TBP bot, player 1 the engine's placement bot, each placing
/// a piece every `pace` ms of game time (player 1 every `rival_every`th turn), until the match
/// is over or the TBP bot placed `pieces`. Turn-based: game time stands still while the bot
/// thinks. A forfeit ends player 0's game with `Input::Forfeit`.
async fn play_match(bot: &mut TbpBot, pieces: u32, rival_every: u32) -> Outcome {
    let config = GameConfig::default();
    let mut m = Match::new(
        MatchKind::Battle,
        vec![config.clone(), config],
        &[11, 12],
        &[],
        1,
    );
    let weights = Weights::default();
    let mut time: Time = 0;
    m.update(time);
    let mut turn = 0u32;
    let mut forfeit = None;
    let mut forfeit_after = Duration::ZERO;
    while !m.is_over() && m.game(0).map_or(0, |g| g.stats().pieces) < pieces {
        time += 150;
        turn += 1;
        m.update(time);
        let game = m.game(0).expect("player 0");
        if let Some(view) = TbpState::of_game(game, 5) {
            let asked = Instant::now();
            let answer = match bot.suggest(&view).await {
                Ok(moves) => bot.play(game, &moves).await,
                Err(f) => Err(f),
            };
            match answer {
                Ok(buttons) => press_at_once(&mut m, 0, time, &buttons),
                Err(f) => {
                    forfeit_after = asked.elapsed();
                    forfeit = Some(f);
                    m.input(0, time, Input::Forfeit);
                    break;
                }
            }
        }
        if turn.is_multiple_of(rival_every)
            && let Some(plan) = m.game(1).and_then(|g| best_plan(g, &weights))
        {
            time = tap(&mut m, 1, time, &plan.buttons);
        }
    }
    Outcome {
        forfeit,
        forfeit_after,
        bot_pieces: m.game(0).map_or(0, |g| g.stats().pieces),
        game: m.game(0).expect("player 0").clone(),
        match_over: m.is_over(),
    }
}

/// Presses and releases `buttons` for `player` at `time`, the way the frontend's paths are
/// meant (`minotty_tbp::path::execute`).
fn press_at_once(m: &mut Match, player: usize, time: Time, buttons: &[Button]) {
    for &b in buttons {
        m.input(player, time, Input::Press(b));
        m.input(player, time, Input::Release(b));
    }
}

/// Presses and releases `buttons` for `player`, one a millisecond from `time` (the engine's
/// placement bot plans that way). Returns the time after the last.
fn tap(m: &mut Match, player: usize, mut time: Time, buttons: &[Button]) -> Time {
    for &b in buttons {
        m.input(player, time, Input::Press(b));
        m.input(player, time, Input::Release(b));
        time += 1;
    }
    time
}

#[tokio::test]
async fn minotty_bot_plays_a_match_whose_replay_verifies() {
    let outcome = plays_a_match(BOT).await;
    assert_eq!(outcome.bot_pieces, 60);
    assert!(!outcome.match_over);
}

#[tokio::test]
async fn minotty_bot_with_the_versus_brain_plays_a_match_whose_replay_verifies() {
    plays_a_match(&format!("{BOT} --level 7")).await;
}

async fn plays_a_match(command: &str) -> Outcome {
    let dir = tempfile::tempdir().expect("a directory");
    let log = dir.path().join("to-bot.jsonl");
    let mut bot = launch(&recorded(command, &log), settings(5000))
        .await
        .expect("starts");
    assert_eq!(bot.info().name, "minotty-bot");
    let pid = bot.pid().expect("a pid");
    let outcome = play_match(&mut bot, 60, 2).await;
    let stats = *outcome.game.stats();
    println!(
        "{command}: {} pieces, {} lines, {} attack, {} garbage received; match over: {}",
        stats.pieces, stats.lines, stats.attack, stats.garbage_received, outcome.match_over
    );
    assert_eq!(outcome.forfeit, None);
    // 50 pieces and more, unless the bot won before (its rival topped out).
    let won = outcome.match_over && !outcome.game.is_over();
    assert!(outcome.bot_pieces >= 50 || won, "{outcome:?}");
    assert!(outcome.bot_pieces >= 30, "{outcome:?}");
    // Garbage rose: the frontend had to start the bot again from the real board.
    assert!(stats.garbage_received > 0);
    // An ordinary engine game: its inputs (garbage included) replay to the same game.
    let replay = outcome.game.replay();
    let verified = replay.verify().expect("verifies");
    assert_eq!(verified.stats.pieces, outcome.game.stats().pieces);
    assert_eq!(verified.stats.lines, outcome.game.stats().lines);
    assert_eq!(
        verified.stats.garbage_received,
        outcome.game.stats().garbage_received
    );
    assert!(bot.finish().await, "reaped");
    assert!(reaped(pid).await);
    // The frontend kept to the protocol's life cycle: one suggestion and one play per piece,
    // and a `garbage` message each time garbage changed the board (minotty-bot takes them:
    // no fresh start).
    let [starts, stops, suggests, plays, new_pieces] = assert_life_cycle(&log);
    assert_eq!(plays as u32, stats.pieces);
    assert_eq!(suggests, plays);
    assert_eq!(stops, starts);
    // One start, and a `garbage` message for each piece that came after garbage rose.
    let mut after_garbage = 0;
    let mut risen = false;
    replay
        .play_with(|e| match e.kind {
            EventKind::GarbageRisen { .. } => risen = true,
            EventKind::Spawn { .. } if risen => {
                after_garbage += 1;
                risen = false;
            }
            _ => {}
        })
        .expect("replays");
    let text = std::fs::read_to_string(&log).expect("the log");
    let garbage = text
        .lines()
        .filter(|l| l.contains(r#""type":"garbage""#))
        .count();
    assert_eq!((starts, garbage), (1, after_garbage));
    assert!(new_pieces > plays / 2, "{new_pieces} new pieces");
    outcome
}

/// Runs `minotty-bot --fault FAULT` in a match and returns the outcome, checking that the
/// bot's game ended as a forfeit, the match is over and the process is gone.
async fn faulty(fault: &str, settings: TbpSettings) -> Outcome {
    let mut bot = launch(&format!("{BOT} --fault {fault}"), settings)
        .await
        .expect("starts");
    let pid = bot.pid().expect("a pid");
    let outcome = play_match(&mut bot, 60, 2).await;
    assert!(outcome.forfeit.is_some(), "{fault}: no forfeit");
    assert_eq!(
        outcome.game.outcome(),
        Some((EndReason::Forfeit, false)),
        "{fault}"
    );
    assert!(outcome.match_over, "{fault}: the match is decided");
    // The bot had played its correct moves before misbehaving.
    assert!(outcome.bot_pieces >= 3, "{fault}: {}", outcome.bot_pieces);
    assert!(outcome.game.replay().verify().is_ok());
    bot.finish().await;
    assert!(reaped(pid).await, "{fault}: the process is gone");
    outcome
}

#[tokio::test]
async fn garbage_is_a_forfeit() {
    let o = faulty("garbage@3", settings(5000)).await;
    assert_eq!(o.forfeit, Some(Forfeit::Garbage));
}

#[tokio::test]
async fn a_message_of_the_wrong_type_is_a_forfeit() {
    let o = faulty("wrong-type@3", settings(5000)).await;
    assert_eq!(
        o.forfeit,
        Some(Forfeit::Unexpected {
            got: "ready",
            want: "suggestion"
        })
    );
}

#[tokio::test]
async fn an_impossible_move_is_a_forfeit() {
    let o = faulty("impossible@3", settings(5000)).await;
    assert_eq!(o.forfeit, Some(Forfeit::NoValidMove));
}

#[tokio::test]
async fn a_bot_that_hangs_forfeits_when_its_time_is_up() {
    let o = faulty("hang@3", settings(300)).await;
    assert_eq!(
        o.forfeit,
        Some(Forfeit::Timeout("suggestion", Duration::from_millis(300)))
    );
    // The deadline's reason, and not before it (a lower bound: timed from before the request,
    // so a busy machine only makes it longer); how soon after is printed, not compared.
    assert!(o.forfeit_after >= Duration::from_millis(300));
    println!("forfeited {:?} after the request", o.forfeit_after);
}

#[tokio::test]
async fn a_bot_that_exits_mid_match_forfeits() {
    // Noticed as an exit: a frontend that missed it would forfeit the bot at its 5 s
    // deadline, `Timeout`, instead.
    let o = faulty("exit@3", settings(5000)).await;
    assert_eq!(o.forfeit, Some(Forfeit::Exited));
}

#[tokio::test]
async fn an_endless_line_is_a_forfeit_not_a_growing_buffer() {
    let s = TbpSettings {
        max_line: 16 << 10,
        ..settings(5000)
    };
    let o = faulty("endless-line@3", s).await;
    assert_eq!(o.forfeit, Some(Forfeit::LineTooLong(16 << 10)));
}

#[tokio::test]
async fn a_flood_of_unknown_messages_is_a_forfeit() {
    let o = faulty("flood@3", settings(5000)).await;
    assert_eq!(o.forfeit, Some(Forfeit::Flood));
}

#[tokio::test]
async fn a_bot_past_its_memory_limit_dies_and_forfeits() {
    // The fault allocates up to 2 GiB; the limit stops it at 256 MiB.
    let s = TbpSettings {
        memory_mib: 256,
        ..settings(5000)
    };
    let o = faulty("alloc@3", s).await;
    assert_eq!(o.forfeit, Some(Forfeit::Exited));
}

#[tokio::test]
async fn the_memory_limit_is_the_bots_address_space() {
    // A "bot" that names itself after its own `ulimit -v` (KiB), then waits.
    let script = r#"sh -c 'echo "{\"type\":\"info\",\"name\":\"$(ulimit -v)\",\"version\":\"1\",\"author\":\"t\",\"features\":[]}"; echo "{\"type\":\"ready\"}"; sleep 100'"#;
    let s = TbpSettings {
        memory_mib: 300,
        ..settings(1000)
    };
    let bot = launch(script, s).await.expect("starts");
    assert_eq!(bot.info().name, (300 * 1024).to_string());
    let pid = bot.pid().expect("a pid");
    assert!(bot.finish().await);
    assert!(reaped(pid).await);
}

#[tokio::test]
async fn bots_that_fail_to_start_are_refused() {
    let quick = TbpSettings {
        startup_time: Duration::from_millis(300),
        ..settings(300)
    };
    // Never says a word.
    let silent = launch("sleep 100", quick.clone()).await;
    assert_eq!(
        silent.err(),
        Some(Forfeit::Timeout("info", Duration::from_millis(300)))
    );
    // Not a program.
    let missing = launch("/nonexistent/tbp-bot", quick.clone()).await;
    assert_eq!(missing.err(), Some(Forfeit::Exited));
    // Says it cannot play these rules.
    let refuses = launch(
        r#"sh -c 'echo "{\"type\":\"info\",\"name\":\"n\",\"version\":\"1\",\"author\":\"a\",\"features\":[]}"; read rules; echo "{\"type\":\"error\",\"reason\":\"unsupported_rules\"}"; sleep 100'"#,
        quick.clone(),
    )
    .await;
    assert_eq!(
        refuses.err(),
        Some(Forfeit::BotError(String::from("unsupported_rules")))
    );
    // Garbage instead of info.
    let garbage = launch("sh -c 'echo hello; sleep 100'", quick).await;
    assert_eq!(garbage.err(), Some(Forfeit::Garbage));
}

#[tokio::test]
async fn a_bot_dropped_mid_match_is_killed_and_reaped() {
    let mut bot = launch(BOT, settings(5000)).await.expect("starts");
    let pid = bot.pid().expect("a pid");
    let outcome = play_match(&mut bot, 5, 2).await;
    assert_eq!(outcome.forfeit, None);
    // The player left, the room task ended: the bot goes with it, without `finish`.
    drop(bot);
    assert!(reaped(pid).await, "the dropped bot is gone");
}

#[tokio::test]
async fn a_hanging_bot_is_killed_at_the_end_of_the_match() {
    // Ignores `quit` and its input closing: `finish` kills it.
    let script = r#"sh -c 'trap "" TERM; echo "{\"type\":\"info\",\"name\":\"n\",\"version\":\"1\",\"author\":\"a\",\"features\":[]}"; read rules; echo "{\"type\":\"ready\"}"; while true; do sleep 1; done'"#;
    let bot = launch(script, settings(300)).await.expect("starts");
    let pid = bot.pid().expect("a pid");
    // `finish` kills it (it ignores `quit` and TERM) and reaps it; waited for generously.
    let finished = tokio::time::timeout(Duration::from_secs(30), bot.finish()).await;
    assert_eq!(finished, Ok(true), "killed and reaped");
    assert!(reaped(pid).await);
}

#[tokio::test]
async fn the_number_of_bot_processes_is_capped() {
    let spec: BotSpec = format!("bot={BOT}").parse().expect("a spec");
    let pool = TbpBots::new(vec![spec], settings(5000), 2);
    let a = pool.launch("bot").await.expect("known").expect("starts");
    let b = pool.launch("bot").await.expect("known").expect("starts");
    assert_eq!(pool.running(), 2);
    assert_eq!(
        pool.launch("bot").await.expect("known").err(),
        Some(Forfeit::Busy)
    );
    assert!(pool.launch("nobody").await.is_none());
    a.finish().await;
    assert_eq!(pool.running(), 1);
    let c = pool
        .launch("bot")
        .await
        .expect("known")
        .expect("a slot again");
    b.finish().await;
    c.finish().await;
    assert_eq!(pool.running(), 0);
}

#[tokio::test]
async fn a_bots_info_reaches_players_through_the_allowlist() {
    // A bot whose name, version and author hide bidi overrides and isolates, zero-width
    // joiners, an escape sequence and private-use characters (JSON escapes, decoded by the
    // frontend).
    let dir = tempfile::tempdir().expect("a directory");
    let script = dir.path().join("bot.sh");
    std::fs::write(
        &script,
        r#"printf '%s\n' '{"type":"info","name":"ev\u202eil\u200d\u001b[2J\ue000bot","version":"1\u2066.0\u2069","author":"x\uf8ff\u200by\udbff\udffd","features":[]}'
read rules
printf '%s\n' '{"type":"ready"}'
sleep 100
"#,
    )
    .expect("the script");
    let bot = launch(&format!("sh {}", script.display()), settings(1000))
        .await
        .expect("starts");
    let info = bot.info().clone();
    assert_eq!(
        (
            info.name.as_str(),
            info.version.as_str(),
            info.author.as_str()
        ),
        ("evil[2Jbot", "1.0", "xy")
    );
    for c in [info.name, info.version, info.author].concat().chars() {
        assert!(
            minotty_domain::text::is_allowed_name_char(c, false, 0),
            "{c:?}"
        );
    }
    assert!(bot.finish().await);
}
