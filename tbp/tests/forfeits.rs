//! A TBP bot that forfeits in a room is out for good, and visibly: its process is ended and
//! reaped at once, its seat is freed after the match with a notice saying why (so a rematch
//! goes on without it knowingly), and the log line names the bot, the room and the process.

mod common;

use minotty_protocol::RoomCommand;
use std::io::Write;
use std::sync::{Arc, Mutex};

use common::rooms::{host_room, notice, paced, pid_in, room_bots, shared, view, with_pid};
use common::{BOT, reaped, settings};
use minotty_ui::Request;

/// Log lines, as the server writes them.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("the log").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("the log")).into_owned()
    }
}

#[tokio::test]
async fn a_bot_that_forfeits_is_ended_frees_its_seat_and_is_named_in_the_log() {
    let captured = Captured::default();
    let sink = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || sink.clone())
        .with_ansi(false)
        .finish();
    let _log = tracing::subscriber::set_default(subscriber);

    let dir = tempfile::tempdir().expect("a directory");
    let pid_file = dir.path().join("pid");
    // Plays three pieces, then suggests a move below the floor and hangs (alive, idle).
    let command = with_pid(&pid_file, &format!("{BOT} --fault impossible@3"));
    let tbp = room_bots("cc", &command, paced(settings(3000)), 2);
    let shared = shared(tbp.clone());
    let (mut host, mut rx, lobby) = host_room(&shared, "ada", 3).await;
    host.handle(Request::Room(RoomCommand::AddTbpBot { name: "cc".into() }));
    let seated = view(&mut rx, 2).await;
    assert_eq!(seated.seats[1].name, "Bot cc");
    host.handle(Request::Room(RoomCommand::Ready { ready: true }));
    host.handle(Request::Room(RoomCommand::Start));

    // The bot forfeits its game, which ends the match (the host is the last one standing);
    // then it leaves its seat and the host is told why.
    let notice = notice(&mut rx).await;
    assert_eq!(
        notice,
        "Bot cc forfeited (no move of the bot's suggestion can be played) and left its seat."
    );
    let after = view(&mut rx, 1).await;
    assert_eq!(
        after.seats[0].name, "~ada",
        "only the host (a guest) is seated"
    );

    // Its process was ended and reaped, and its slot is free, while the room lives on.
    let pid = pid_in(&pid_file);
    assert!(reaped(pid).await, "process {pid} is gone");
    assert_eq!(tbp.running(), 0, "its slot is back");

    let log = captured.text();
    let line = log
        .lines()
        .find(|l| l.contains("a TBP bot forfeits"))
        .unwrap_or_else(|| panic!("no forfeit line in:\n{log}"));
    for field in [
        "bot=cc".to_owned(),
        format!("room={}", lobby.code),
        format!("pid={pid}"),
        "reason=no move of the bot's suggestion can be played".to_owned(),
    ] {
        assert!(line.contains(&field), "{field} missing in {line}");
    }
    host.handle(Request::LeaveRoom);
}
