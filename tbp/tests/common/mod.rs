//! Helpers shared by the tests that run bot processes.
#![allow(dead_code)]

pub mod rooms;

use std::path::Path;
use std::time::Duration;

use minotty_tbp::FrontendMessage;
use minotty_tbp::frontend::{BotSpec, Forfeit, TbpBot, TbpBots, TbpSettings};

pub const BOT: &str = env!("CARGO_BIN_EXE_minotty-bot");

pub fn settings(move_ms: u64) -> TbpSettings {
    TbpSettings {
        move_time: Duration::from_millis(move_ms),
        startup_time: Duration::from_secs(10),
        // The server here is a test binary: minotty-bot (built with the frontend) keeps.
        keeper: Some(BOT.into()),
        ..TbpSettings::default()
    }
}

pub fn bots(command: &str, settings: TbpSettings) -> TbpBots {
    let spec: BotSpec = format!("bot={command}").parse().expect("a bot spec");
    TbpBots::new(vec![spec], settings, 4)
}

pub async fn launch(command: &str, settings: TbpSettings) -> Result<TbpBot, Forfeit> {
    bots(command, settings)
        .launch("bot")
        .await
        .expect("a bot of that name")
}

/// Whether the process is gone from the process table (a zombie is still listed until reaped).
pub async fn reaped(pid: u32) -> bool {
    for _ in 0..100 {
        if !Path::new(&format!("/proc/{pid}")).exists() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

/// A command that runs `bot` with everything the frontend writes to it copied to `log`.
pub fn recorded(bot: &str, log: &Path) -> String {
    format!("sh -c 'tee {} | {bot}'", log.display())
}

/// Checks the frontend's messages in `log` against the TBP life cycle: `rules` first; `start`
/// only when not calculating, `stop` only when calculating; `suggest`, `play` and `new_piece`
/// only while calculating, each `play` after a `suggest`; `quit` last. Returns how many of
/// each were sent, in the order start, stop, suggest, play, new_piece.
pub fn assert_life_cycle(log: &Path) -> [usize; 5] {
    let text = std::fs::read_to_string(log).expect("the log");
    let messages: Vec<FrontendMessage> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a frontend message"))
        .collect();
    assert_eq!(
        messages.first(),
        Some(&FrontendMessage::Rules),
        "rules first"
    );
    assert_eq!(messages.last(), Some(&FrontendMessage::Quit), "quit last");
    let mut calculating = false;
    let mut suggested = false;
    let mut counts = [0usize; 5];
    for (i, m) in messages.iter().enumerate().skip(1) {
        let at = format!("message {i}: {m:?}");
        match m {
            FrontendMessage::Start(_) => {
                assert!(!calculating, "{at}: start while calculating");
                calculating = true;
                counts[0] += 1;
            }
            FrontendMessage::Stop => {
                assert!(calculating, "{at}: stop while not calculating");
                calculating = false;
                suggested = false;
                counts[1] += 1;
            }
            FrontendMessage::Suggest => {
                assert!(calculating, "{at}");
                suggested = true;
                counts[2] += 1;
            }
            FrontendMessage::Play { .. } => {
                assert!(calculating && suggested, "{at}: play without a suggestion");
                suggested = false;
                counts[3] += 1;
            }
            FrontendMessage::Garbage { .. } => assert!(calculating, "{at}"),
            FrontendMessage::NewPiece { .. } => {
                assert!(calculating, "{at}");
                counts[4] += 1;
            }
            FrontendMessage::Quit => assert_eq!(i, messages.len() - 1, "{at}"),
            FrontendMessage::Rules | FrontendMessage::Unknown => panic!("{at}"),
        }
    }
    assert!(!calculating, "stopped before quitting");
    counts
}
