//! A TBP bot's CPU between moves is bounded: its process group is stopped (SIGSTOP) once it
//! answered and runs again (SIGCONT) with the next message. Shown with `minotty-bot --fault
//! spin`, which keeps a core busy from its first `start` on, as Cold Clear 2 keeps searching
//! while it waits: the CPU ticks it is charged while the frontend waits stay the same.

mod common;

use std::time::Duration;

use common::{BOT, launch, reaped, settings};
use minotty_engine::{Game, GameConfig, Mode};
use minotty_tbp::TbpState;

/// The process's state letter and its CPU time so far (user + system, in clock ticks).
fn stat(pid: u32) -> (char, u64) {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the process");
    let (_, rest) = text.rsplit_once(") ").expect("a stat line");
    let fields: Vec<&str> = rest.split(' ').collect();
    // After the command: state is field 3 of stat(5), utime 14 and stime 15.
    let state = fields[0].chars().next().expect("a state");
    let ticks = |i: usize| fields[i - 3].parse::<u64>().expect("ticks");
    (state, ticks(14) + ticks(15))
}

#[tokio::test]
async fn a_bot_that_searches_while_it_waits_uses_no_cpu_between_moves() {
    let mut bot = launch(&format!("{BOT} --fault spin"), settings(2000))
        .await
        .expect("starts");
    let pid = bot.pid().expect("a pid");
    let game = {
        let mut g = Game::new(
            GameConfig {
                mode: Mode::marathon(),
                ..GameConfig::default()
            },
            5,
        );
        g.update(0, None);
        g
    };
    let view = TbpState::of_game(&game, 5).expect("a piece in play");
    for turn in 0..3 {
        // Asked: it runs (and spins) until it answers.
        let moves = bot.suggest(&view).await.expect("a suggestion");
        assert!(!moves.is_empty());
        // Between moves: stopped, and charged no CPU however long the wait (a wait, not a
        // bound on how fast anything is).
        // (A signal is delivered a moment after it is sent: wait for the stop, generously.)
        let mut stopped = false;
        for _ in 0..250 {
            if stat(pid).0 == 'T' {
                stopped = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(stopped, "turn {turn}: stopped, not {:?}", stat(pid).0);
        let (_, before) = stat(pid);
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (state_after, after) = stat(pid);
        assert_eq!(state_after, 'T', "turn {turn}: still stopped");
        assert_eq!(after - before, 0, "turn {turn}: CPU ticks while waiting");
        // Told the position afresh next turn (a new start wakes it and its spinning thread).
        bot.resync();
    }
    // A stopped bot still ends and is reaped.
    assert!(bot.finish().await);
    assert!(reaped(pid).await);
}
