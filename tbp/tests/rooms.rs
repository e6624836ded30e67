//! The operator's TBP bot seated in a versus room by its host (through the server's services,
//! as a session's App asks): it plays its match as a room member, its board reaches the
//! opponent, and its process goes when the room closes.

mod common;

use minotty_protocol::RoomCommand;
use std::path::Path;
use std::time::Duration;

use common::rooms::{
    host_room, match_started, notice, paced, pid_in, room_bots, shared, until, until_stopped, view,
    with_pid,
};
use common::{BOT, settings};
use minotty_protocol::{Progress, Report};
use minotty_server::services::Services;
use minotty_tbp::frontend::TbpSettings;
use minotty_ui::{Request, Response};
use tokio::sync::mpsc;
use tokio::time::Instant;

#[tokio::test]
async fn a_host_seats_the_tbp_bot_by_name_and_it_plays_the_match() {
    let dir = tempfile::tempdir().expect("a directory");
    let pid_file = dir.path().join("pid");
    let tbp = room_bots(
        "minotty",
        &with_pid(&pid_file, BOT),
        paced(settings(3000)),
        2,
    );
    let shared = shared(tbp.clone());
    let (mut host, mut rx, lobby) = host_room(&shared, "ada", 2).await;
    assert_eq!(lobby.tbp_bots, ["minotty"], "the host sees the bot by name");
    host.handle(Request::Room(RoomCommand::AddTbpBot {
        name: "nobody".into(),
    }));
    let refused = notice(&mut rx).await;
    assert!(refused.contains("no such bot"), "{refused}");
    host.handle(Request::Room(RoomCommand::AddTbpBot {
        name: "minotty".into(),
    }));
    let seated = view(&mut rx, 2).await;
    let bot = &seated.seats[1];
    assert_eq!(bot.name, "Bot minotty");
    assert_eq!(bot.bot, Some(0), "a bot's seat, of no level");
    assert!(bot.ready);
    assert_eq!(tbp.running(), 1);

    host.handle(Request::Room(RoomCommand::Ready { ready: true }));
    host.handle(Request::Room(RoomCommand::Start));
    match_started(&mut rx).await;
    // The countdown, then the bot plays: its board fills on the host's screen.
    let pieces = until(&mut rx, |r| match r {
        Response::Opponents(o) => o.first().filter(|o| o.progress.pieces >= 10).map(|o| {
            (
                o.progress.pieces,
                o.board.rows.iter().flatten().any(|&c| c != 0),
            )
        }),
        _ => None,
    })
    .await;
    assert!(pieces.1, "the bot's board shows its pieces");
    // The host gives up: the bot wins.
    host.handle(Request::Room(RoomCommand::Report {
        reports: vec![Report::Forfeited {
            progress: Progress::default(),
        }],
    }));
    let result = until(&mut rx, |r| match r {
        Response::MatchOver(result) => Some(result),
        _ => None,
    })
    .await;
    assert_eq!(result.rows[0].name, "Bot minotty", "{result:?}");
    assert!(!result.ranked);

    // The host leaves, the room closes, and the bot's process with it.
    let pid = pid_in(&pid_file);
    assert!(
        Path::new(&format!("/proc/{pid}")).exists(),
        "running until then"
    );
    host.handle(Request::LeaveRoom);
    until_stopped(&tbp, Some(pid), 20).await;
    assert_eq!(tbp.running(), 0, "its slot is back");
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "killed and reaped"
    );
}

#[tokio::test]
async fn a_full_server_refuses_the_seat_at_once() {
    // Two for this host, one for the server.
    let settings = TbpSettings {
        max_per_host: 2,
        ..settings(3000)
    };
    let tbp = room_bots("minotty", BOT, settings, 1);
    let shared = shared(tbp.clone());
    let (mut host, mut rx, _) = host_room(&shared, "ada", 4).await;
    host.handle(Request::Room(RoomCommand::AddTbpBot {
        name: "minotty".into(),
    }));
    view(&mut rx, 2).await;
    host.handle(Request::Room(RoomCommand::AddTbpBot {
        name: "minotty".into(),
    }));
    let refused = notice(&mut rx).await;
    assert!(refused.contains("try again later"), "{refused}");
    assert_eq!(tbp.running(), 1);
    // Removing the bot frees its slot.
    host.handle(Request::Room(RoomCommand::RemoveBot { seat: 1 }));
    view(&mut rx, 1).await;
    until_stopped(&tbp, None, 20).await;
    assert_eq!(tbp.running(), 0);
}

/// Waits for the bot (the host's only opponent) to have placed `pieces` in the match running.
async fn bot_placed(rx: &mut mpsc::Receiver<Response>, pieces: u32) {
    until(rx, |r| match r {
        Response::Opponents(o) => o
            .first()
            .filter(|o| o.progress.pieces >= pieces)
            .map(|_| ()),
        _ => None,
    })
    .await;
}

/// The host gives up the match running and waits for its result.
async fn give_up(host: &mut Services, rx: &mut mpsc::Receiver<Response>) {
    host.handle(Request::Room(RoomCommand::Report {
        reports: vec![Report::Forfeited {
            progress: Progress::default(),
        }],
    }));
    until(rx, |r| matches!(r, Response::MatchOver(_)).then_some(())).await;
}

#[tokio::test]
async fn the_bot_is_stopped_after_each_game_and_started_for_the_rematch() {
    let dir = tempfile::tempdir().expect("a directory");
    let log = dir.path().join("to-bot.jsonl");
    let command = common::recorded(BOT, &log);
    let tbp = room_bots("minotty", &command, paced(settings(3000)), 2);
    let shared = shared(tbp.clone());
    let (mut host, mut rx, _) = host_room(&shared, "ada", 2).await;
    host.handle(Request::Room(RoomCommand::AddTbpBot {
        name: "minotty".into(),
    }));
    view(&mut rx, 2).await;
    host.handle(Request::Room(RoomCommand::Ready { ready: true }));
    host.handle(Request::Room(RoomCommand::Start));
    bot_placed(&mut rx, 5).await;
    give_up(&mut host, &mut rx).await;
    host.handle(Request::Room(RoomCommand::Rematch));
    match_started(&mut rx).await;
    bot_placed(&mut rx, 5).await;
    give_up(&mut host, &mut rx).await;
    host.handle(Request::LeaveRoom);
    until_stopped(&tbp, None, 20).await;
    assert_eq!(tbp.running(), 0);
    // One process for both games: started and stopped once per game (no garbage: the host
    // never attacked), every piece suggested and played.
    let [starts, stops, suggests, plays, _] = common::assert_life_cycle(&log);
    assert_eq!(
        (starts, stops),
        (2, 2),
        "{suggests} suggestions, {plays} plays"
    );
    assert!(plays >= 10 && suggests >= plays && suggests <= plays + 2);
}

/// What a process's `/proc` entry says of it, once it runs `comm`.
struct Seen {
    nice: i64,
    /// `RLIMIT_CPU`, soft.
    cpu: String,
    environ: Vec<String>,
}

async fn seen(pid: u32, comm: &str) -> Seen {
    let proc = |what: &str| std::fs::read_to_string(format!("/proc/{pid}/{what}"));
    let deadline = Instant::now() + Duration::from_secs(20);
    while proc("comm").map(|c| c.trim().to_owned()).ok().as_deref() != Some(comm) {
        assert!(
            Instant::now() < deadline,
            "process {pid} never became {comm}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let nice_of = |stat: String| -> i64 {
        let fields = stat.rsplit_once(") ").expect("a stat line").1.to_owned();
        fields
            .split_whitespace()
            .nth(19 - 3)
            .and_then(|n| n.parse().ok())
            .expect("a niceness")
    };
    let limits = proc("limits").expect("its limits");
    let cpu = limits
        .lines()
        .find_map(|l| l.strip_prefix("Max cpu time"))
        .and_then(|l| l.split_whitespace().next())
        .expect("a CPU time limit")
        .to_owned();
    let environ = std::fs::read(format!("/proc/{pid}/environ")).expect("its environment");
    Seen {
        nice: nice_of(proc("stat").expect("its stat")),
        cpu,
        environ: environ
            .split(|&b| b == 0)
            .filter(|v| !v.is_empty())
            .map(|v| String::from_utf8_lossy(v).into_owned())
            .collect(),
    }
}

#[tokio::test]
async fn a_host_seats_one_tbp_bot_whose_process_starts_with_the_match_confined() {
    let dir = tempfile::tempdir().expect("a directory");
    let pid_file = dir.path().join("pid");
    // The defaults but for the CPU time, to tell it from the kernel's.
    let settings = paced(TbpSettings {
        cpu_secs: 77,
        ..settings(3000)
    });
    let tbp = room_bots("minotty", &with_pid(&pid_file, BOT), settings, 8);
    assert_eq!(tbp.settings().max_per_host, 1, "one per host by default");
    let shared = shared(tbp.clone());
    let (mut host, mut rx, _) = host_room(&shared, "mallory", 8).await;
    host.handle(Request::Room(RoomCommand::AddTbpBot {
        name: "minotty".into(),
    }));
    view(&mut rx, 2).await;
    // The guest tries to take every slot of the server from one lobby.
    for _ in 0..6 {
        host.handle(Request::Room(RoomCommand::AddTbpBot {
            name: "minotty".into(),
        }));
        let refused = until(&mut rx, |r| match r {
            Response::Notice { message } => Some(message),
            Response::Room(v) => panic!("seated past the cap: {v:?}"),
            _ => None,
        })
        .await;
        assert!(refused.contains("one external bot"), "{refused}");
    }
    assert_eq!(tbp.running(), 1, "one slot taken, however often asked");

    // Seated, in the lobby: no process yet (the refusals above took their time too).
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!pid_file.exists(), "a bot process started in the lobby");

    host.handle(Request::Room(RoomCommand::Ready { ready: true }));
    host.handle(Request::Room(RoomCommand::Start));
    match_started(&mut rx).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let pid: u32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|p| p.trim().parse().ok())
        {
            break pid;
        }
        assert!(Instant::now() < deadline, "the bot never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let bot = seen(pid, "minotty-bot").await;
    let server = seen(std::process::id(), &{
        std::fs::read_to_string("/proc/self/comm")
            .expect("our name")
            .trim()
            .to_owned()
    })
    .await;
    assert_eq!(bot.nice, (server.nice + 10).min(19), "niced");
    assert_eq!(bot.cpu, "77", "RLIMIT_CPU");
    let names = |env: &[String]| -> Vec<String> {
        env.iter()
            .map(|v| v.split_once('=').map_or(v.as_str(), |(n, _)| n).to_owned())
            .collect()
    };
    let ours = names(&server.environ);
    assert!(ours.len() > 2, "{ours:?}");
    for name in names(&bot.environ) {
        assert!(
            name == "PWD" || !ours.contains(&name),
            "the server's {name} reached the bot: {:?}",
            bot.environ
        );
    }

    host.handle(Request::LeaveRoom);
    until_stopped(&tbp, Some(pid), 5).await;
    assert_eq!(tbp.running(), 0);
    assert!(!Path::new(&format!("/proc/{pid}")).exists(), "reaped");
}
