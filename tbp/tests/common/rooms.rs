//! Helpers for the tests that seat TBP bots in versus rooms through the server's services, as
//! a session's App asks: the services, a host's room, the responses awaited.

use std::path::Path;
use std::time::Duration;

use minotty_engine::versus::MatchKind;
use minotty_protocol::{RoomLimit, RoomSettings, RoomView};
use minotty_server::services::account::SharedAccounts;
use minotty_server::services::versus::SharedVersus;
use minotty_server::services::{Login, Services, SharedServices};
use minotty_server::versus::bot::BotLimits;
use minotty_tbp::frontend::{BotSpec, TbpBots, TbpSettings};
use minotty_ui::{Request, Response};
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout};

/// The server's bots: one, `name=command`, with `settings`, `max` processes at once.
pub fn room_bots(name: &str, command: &str, settings: TbpSettings, max: usize) -> TbpBots {
    let spec: BotSpec = format!("{name}={command}").parse().expect("a spec");
    TbpBots::new(vec![spec], settings, max)
}

/// `settings` with pieces no faster than 60 ms (a match a test can watch).
pub fn paced(settings: TbpSettings) -> TbpSettings {
    TbpSettings {
        min_piece: Duration::from_millis(60),
        ..settings
    }
}

/// A bot command that writes its pid to `pid_file` and becomes `bot` (a path and its flags).
pub fn with_pid(pid_file: &Path, bot: &str) -> String {
    format!("sh -c 'echo $$ > {}; exec {bot}'", pid_file.display())
}

/// The pid a [`with_pid`] command wrote.
pub fn pid_in(file: &Path) -> u32 {
    std::fs::read_to_string(file)
        .expect("the pid file")
        .trim()
        .parse()
        .expect("a pid")
}

/// Services with no database, three versus bots and the TBP bots `tbp`.
pub fn shared(tbp: TbpBots) -> SharedServices {
    SharedServices {
        account: SharedAccounts::new(None, None),
        versus: SharedVersus::with_tbp(None, Some(3), BotLimits::default(), tbp),
    }
}

/// A guest's login as `name`.
pub fn guest(name: &str) -> Login {
    Login {
        ssh_user: name.into(),
        identity: minotty_server::services::Identity::Guest,
        peer: "192.0.2.1".parse().expect("an address"),
        account: None,
    }
}

/// A guest `name`'s services with a battle room of `max_players` created, and its lobby.
pub async fn host_room(
    shared: &SharedServices,
    name: &str,
    max_players: u8,
) -> (Services, mpsc::Receiver<Response>, RoomView) {
    let (mut host, mut rx) = Services::new(shared, guest(name));
    host.handle(Request::CreateRoom(RoomSettings::new(
        MatchKind::Battle,
        max_players,
        RoomLimit::None,
    )));
    let lobby = view(&mut rx, 1).await;
    (host, rx, lobby)
}

/// The next response that `pick` accepts, within 20 s.
pub async fn until<T>(
    rx: &mut mpsc::Receiver<Response>,
    mut pick: impl FnMut(Response) -> Option<T>,
) -> T {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let r = timeout(deadline - Instant::now(), rx.recv())
            .await
            .expect("in time")
            .expect("open");
        if let Some(t) = pick(r) {
            return t;
        }
    }
}

/// The next view of the room with `seats` seats taken.
pub async fn view(rx: &mut mpsc::Receiver<Response>, seats: usize) -> RoomView {
    until(rx, |r| match r {
        Response::Room(v) if v.seats.len() == seats => Some(v),
        _ => None,
    })
    .await
}

/// The next notice's text.
pub async fn notice(rx: &mut mpsc::Receiver<Response>) -> String {
    until(rx, |r| match r {
        Response::Notice { message } => Some(message),
        _ => None,
    })
    .await
}

/// Waits for the next match to start.
pub async fn match_started(rx: &mut mpsc::Receiver<Response>) {
    until(rx, |r| matches!(r, Response::MatchStart(_)).then_some(())).await;
}

/// Waits, up to `secs`, until no bot of `tbp` runs and the process `pid` (if any) is gone.
pub async fn until_stopped(tbp: &TbpBots, pid: Option<u32>, secs: u64) {
    let alive = |pid: u32| Path::new(&format!("/proc/{pid}")).exists();
    let deadline = Instant::now() + Duration::from_secs(secs);
    while (tbp.running() > 0 || pid.is_some_and(alive)) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
