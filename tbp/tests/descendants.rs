//! Every process a TBP bot starts ends with it, and none stays a zombie: a child that calls
//! `setsid` (a session and process group of its own, out of reach of a group kill) is ended
//! when the bot's game ends, when the server drops the bot, and when the bot is ended for
//! starting too many processes; read back from `/proc`.
//!
//! This test process makes itself a child subreaper first, as the server is PID 1 in a
//! container without an init: an orphan the bot leaves would be adopted by it and never reaped.

mod common;

use std::time::Duration;

use common::{BOT, launch, settings};
use minotty_engine::{Game, GameConfig, Mode};
use minotty_tbp::TbpState;
use minotty_tbp::frontend::keeper::{EXIT_TOO_MANY, descendants_of};
use minotty_tbp::frontend::{Forfeit, TbpBot};

/// Fields of `/proc/PID/stat` after the command: `None` when no such process (neither alive
/// nor a zombie).
fn stat(pid: u32) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = text.rsplit_once(") ")?;
    Some(rest.split(' ').map(str::to_owned).collect())
}

/// A process's state letter, parent, process group and session.
fn state(pid: u32) -> Option<(char, u32, u32, u32)> {
    let f = stat(pid)?;
    let n = |i: usize| f.get(i - 3).and_then(|v| v.parse().ok()).unwrap_or(0);
    Some((f[0].chars().next().unwrap_or('?'), n(4), n(5), n(6)))
}

/// Waits (2 s at most) until none of `pids` is in the process table.
async fn all_gone(pids: &[u32]) -> Vec<(u32, Option<(char, u32, u32, u32)>)> {
    for _ in 0..100 {
        if pids.iter().all(|&p| state(p).is_none()) {
            return Vec::new();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    pids.iter()
        .map(|&p| (p, state(p)))
        .filter(|(_, s)| s.is_some())
        .collect()
}

/// Children of this test process that are zombies now.
/// Our zombie children that stay: a process adopted by this subreaper and dead is never
/// reaped, while a test running beside this one may hold a zombie of its own child for the
/// moment before tokio reaps it; so this waits up to 2 s for the list to empty.
async fn our_zombies() -> Vec<u32> {
    let me = std::process::id();
    let now = || -> Vec<u32> {
        std::fs::read_dir("/proc")
            .expect("/proc")
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&p| state(p).is_some_and(|(s, parent, _, _)| s == 'Z' && parent == me))
            .collect()
    };
    let mut zombies = now();
    for _ in 0..100 {
        if zombies.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        zombies = now();
    }
    zombies
}

fn become_subreaper() {
    nix::sys::prctl::set_child_subreaper(true).expect("a subreaper, as PID 1 is");
}

fn view() -> TbpState {
    let mut g = Game::new(
        GameConfig {
            mode: Mode::marathon(),
            ..GameConfig::default()
        },
        5,
    );
    g.update(0, None);
    TbpState::of_game(&g, 5).expect("a piece in play")
}

/// Asks `bot` for suggestions until its process tree holds a process in a session of its
/// own (the `orphan` fault's); returns the tree then (the bot's own pid first).
async fn tree_with_an_orphan(bot: &mut TbpBot) -> Vec<u32> {
    let pid = bot.pid().expect("a pid");
    let (_, _, _, session) = state(pid).expect("the bot runs");
    // The bot's signal mask is empty (the keeper blocks signals for itself only).
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("its status");
    let blocked = status
        .lines()
        .find_map(|l| l.strip_prefix("SigBlk:"))
        .expect("a mask");
    assert!(
        blocked.trim().chars().all(|c| c == '0'),
        "blocked: {blocked}"
    );
    let view = view();
    for _ in 0..50 {
        bot.suggest(&view).await.expect("a suggestion");
        let mut tree = vec![pid];
        tree.extend(descendants_of(pid));
        if tree
            .iter()
            .any(|&p| state(p).is_some_and(|(s, _, _, sid)| sid != session && s != 'Z'))
        {
            return tree;
        }
    }
    panic!("the bot never started its orphan");
}

#[tokio::test]
async fn a_child_in_a_session_of_its_own_ends_with_the_bots_game() {
    become_subreaper();
    let mut bot = launch(&format!("{BOT} --fault orphan@1"), settings(3000))
        .await
        .expect("starts");
    let tree = tree_with_an_orphan(&mut bot).await;
    assert!(tree.len() >= 2, "{tree:?}");
    // The game ends: stop, quit, the bot exits.
    assert!(bot.finish().await, "reaped");
    let left = all_gone(&tree).await;
    assert!(left.is_empty(), "left behind after the game: {left:?}");
    assert_eq!(
        our_zombies().await,
        Vec::<u32>::new(),
        "nothing adopted and left a zombie"
    );
}

#[tokio::test]
async fn a_child_in_a_session_of_its_own_ends_when_the_bot_is_dropped() {
    become_subreaper();
    let mut bot = launch(&format!("{BOT} --fault orphan@1"), settings(3000))
        .await
        .expect("starts");
    let tree = tree_with_an_orphan(&mut bot).await;
    // A room that goes away mid-match drops its bot.
    drop(bot);
    let left = all_gone(&tree).await;
    assert!(left.is_empty(), "left behind after the drop: {left:?}");
    assert_eq!(
        our_zombies().await,
        Vec::<u32>::new(),
        "nothing adopted and left a zombie"
    );
}

#[tokio::test]
async fn a_bot_that_starts_too_many_processes_forfeits_and_leaves_none() {
    become_subreaper();
    let s = settings(3000);
    let limit = s.max_procs;
    let mut bot = launch(&format!("{BOT} --fault fork-many@1"), s)
        .await
        .expect("starts");
    let pid = bot.pid().expect("a pid");
    let (_, keeper, group, _) = state(pid).expect("the bot runs");
    let view = view();
    let mut forfeit = None;
    for _ in 0..20 {
        if let Err(f) = bot.suggest(&view).await {
            forfeit = Some(f);
            break;
        }
    }
    // It set out to start 200 processes and was ended for passing the limit: the answer it
    // owed never came, and its keeper says why.
    assert_eq!(forfeit, Some(Forfeit::Exited), "limit {limit}");
    let status = bot.end().await.expect("the keeper is reaped");
    assert_eq!(status.code(), Some(i32::from(EXIT_TOO_MANY)), "{status:?}");
    // Nothing of its process group (its children never left it) nor the keeper remains.
    let mut left = Vec::new();
    for _ in 0..100 {
        left = std::fs::read_dir("/proc")
            .expect("/proc")
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&p| p == keeper || state(p).is_some_and(|(_, _, g, _)| g == group))
            .collect();
        if left.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        left,
        Vec::<u32>::new(),
        "processes of the bot's group remain"
    );
    assert_eq!(
        our_zombies().await,
        Vec::<u32>::new(),
        "nothing adopted and left a zombie"
    );
}

/// The pid written to `file`, once it is there.
async fn pid_from(file: &std::path::Path) -> u32 {
    for _ in 0..250 {
        if let Some(pid) = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return pid;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no pid in {}", file.display());
}

#[tokio::test]
async fn a_keeper_whose_server_is_gone_ends_its_bot_and_all_it_started() {
    use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
    use nix::unistd::Pid;

    become_subreaper();
    let dir = tempfile::tempdir().expect("a directory");
    let (keeper_file, orphan_file) = (dir.path().join("keeper"), dir.path().join("orphan"));
    // A "server" that starts a keeper (whose bot leaves a child in a session of its own, and
    // never reads its input) and is gone at once, as a server killed with SIGKILL.
    let bot = format!(
        "setsid sleep 3600 & echo $! > {}; exec sleep 3600",
        orphan_file.display()
    );
    let server = format!(
        "{BOT} __tbp-keeper 32 $$ /bin/sh -c '{bot}' </dev/null >/dev/null & echo $! > {}",
        keeper_file.display()
    );
    let status = std::process::Command::new("/bin/sh")
        .arg("-c")
        .arg(server)
        .status()
        .expect("the server runs");
    assert!(status.success());
    let keeper = pid_from(&keeper_file).await;
    let orphan = pid_from(&orphan_file).await;
    // The keeper, adopted by this process, ends and is reaped here.
    let pid = Pid::from_raw(i32::try_from(keeper).expect("a pid"));
    let mut ended = None;
    for _ in 0..250 {
        match waitpid(pid, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) => tokio::time::sleep(Duration::from_millis(20)).await,
            other => {
                ended = Some(other);
                break;
            }
        }
    }
    assert!(
        matches!(ended, Some(Ok(WaitStatus::Exited(..)))),
        "the keeper ended: {ended:?}"
    );
    let left = all_gone(&[orphan]).await;
    assert!(left.is_empty(), "left behind: {left:?}");
}
