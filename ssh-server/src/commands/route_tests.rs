use std::net::SocketAddr;

use super::*;
use crate::terminal::TermEnv;

fn client() -> ClientInfo {
    ClientInfo {
        pty: false,
        term: None,
        env: TermEnv::default(),
        ssh_client: Some("SSH-2.0-OpenSSH_9.6".to_owned()),
    }
}

fn route(line: &str, pty: Option<(u32, u32)>) -> Route {
    Command::parse(line.as_bytes()).route(pty, client, None)
}

fn refused(stderr: &str) -> Route {
    Route::Reply(Outcome {
        stdout: String::new(),
        stderr: stderr.to_owned(),
        status: 1,
    })
}

/// The games a command opens, with and without a terminal, as the handler opened them.
#[test]
fn games_open_sessions_of_their_kind() {
    let session = |kind, cols, rows, initial| Route::Session {
        kind,
        cols,
        rows,
        initial,
    };
    let pty = Some((100, 40));
    assert_eq!(route("watch", pty), session(SessionKind::Tv, 100, 40, None));
    assert_eq!(
        route("tv", None),
        session(SessionKind::TvStream, 80, 24, None)
    );
    assert_eq!(
        route("doctor", pty),
        session(SessionKind::Doctor, 100, 40, None)
    );
    let join = |code: &str, spectate| {
        Some(Request::JoinRoom {
            code: code.to_owned(),
            spectate,
        })
    };
    assert_eq!(
        route("join K7PQ3M", pty),
        session(SessionKind::Play, 100, 40, join("K7PQ3M", false))
    );
    assert_eq!(
        route("watch K7PQ3M", pty),
        session(SessionKind::Play, 100, 40, join("K7PQ3M", true))
    );
}

/// The replies known at once, whole, with the player's address filled in.
#[test]
fn replies_known_at_once_are_pinned() {
    assert_eq!(
        route("join K7PQ3M", None),
        refused(
            "minotty: joining a room needs a terminal: add -t (ssh -t -p PORT HOST join CODE)\n"
        )
    );
    let usage = refused(
        "minotty: usage: join CODE (or watch CODE), e.g. \"ssh -t -p PORT HOST join K7PQ3M\"\n",
    );
    assert_eq!(route("join", None), usage);
    assert_eq!(route("watch A B", Some((80, 24))), usage);
    let local: SocketAddr = "192.0.2.7:2222".parse().unwrap();
    let Route::Reply(filled) = Command::parse(b"join").route(None, client, Some(local)) else {
        panic!("a usage line is a reply");
    };
    assert!(
        filled
            .stderr
            .contains("ssh -t -p 2222 192.0.2.7 join K7PQ3M"),
        "{}",
        filled.stderr
    );
    let Route::Reply(doctor) = route("doctor", None) else {
        panic!("the doctor without a terminal replies at once");
    };
    assert_eq!(doctor.status, 0);
    assert!(doctor.stderr.is_empty());
    assert_eq!(doctor.stdout, crate::doctor::plain_report(&client()));
}

/// Everything else runs on its own task, admitted by the budgets.
#[test]
fn other_commands_run() {
    for line in [
        "help",
        "lb 40l",
        "replay 3 --cast",
        "replay x",
        "tv x",
        "nope",
        "",
    ] {
        let command = Command::parse(line.as_bytes());
        assert_eq!(
            command.clone().route(Some((80, 24)), client, None),
            Route::Run(command),
            "{line}"
        );
    }
}

/// One game per connection: what a running game refuses.
#[test]
fn a_second_game_is_told_apart() {
    let second = |line: &str, pty| Command::parse(line.as_bytes()).second_game(pty, true);
    assert!(second("tv", false));
    assert!(second("watch", true));
    assert!(second("join A", true));
    assert!(second("join", true));
    assert!(second("doctor", true));
    assert!(!second("join A", false));
    assert!(!second("doctor", false));
    assert!(!second("help", true));
    assert!(!Command::parse(b"tv").second_game(true, false));
}

/// A `join`/`watch` word that is not a room code is parsed into none (issue 27: the code is a
/// `RoomCode` from the edge inward) and refused at once, with the message the services give a
/// code typed in the App, terminal or not; no session opens for it.
#[test]
fn a_word_that_is_not_a_code_is_refused_with_the_services_message() {
    for (line, shown) in [
        ("join K7PQ", "K7PQ"),
        ("watch K0PQ3M", "K0PQ3M"),
        ("spectate k7pq3mk7pq3mk7pq3mk7pq3m", "k7pq3mk7pq3mk7pq"),
        ("join \u{1b}[2Jk0", "[2Jk0"),
    ] {
        assert_eq!(
            Command::parse(line.as_bytes()),
            Command::NotACode(shown.to_owned()),
            "{line:?}"
        );
        let told = format!(
            "minotty: \"{shown}\" is not a room code: codes are 6 letters and digits, like \
             K7PQ3M.\n"
        );
        for pty in [None, Some((80, 24))] {
            assert_eq!(route(line, pty), refused(&told), "{line:?} {pty:?}");
        }
    }
}

/// `replay mN`: with a terminal the game opens on the match's replay; without one, a clear
/// refusal saying how; with `--cast`, an export (run on its own task); a bad id, why.
#[test]
fn replay_of_a_match_opens_its_viewer_or_says_how() {
    assert_eq!(
        route("replay m12", Some((120, 40))),
        Route::Session {
            kind: SessionKind::Match(12),
            cols: 120,
            rows: 40,
            initial: None,
        }
    );
    let Route::Reply(no_pty) = route("replay m12", None) else {
        panic!("a reply");
    };
    assert_eq!(no_pty.status, 1);
    assert!(
        no_pty.stderr.contains("add -t") && no_pty.stderr.contains("replay m12 --cast"),
        "{}",
        no_pty.stderr
    );
    assert!(matches!(
        route("replay m12 --cast --size 100x30", None),
        Route::Run(Command::Replay(Ok(a))) if a.of_match && a.game == 12 && a.cols == 100
    ));
    let Route::Run(Command::Replay(Err(bad))) = route("replay mgarbage", Some((80, 24))) else {
        panic!("refused");
    };
    assert!(bad.contains("\"mgarbage\" is not a match ID"), "{bad}");
    // A second game on a connection whose game runs: refused like `join`.
    assert!(Command::parse(b"replay m3").second_game(true, true));
}
