//! Rooms and the queue driven through `VersusClient`s with plain channels (no SSH).

use minotty_protocol::RoomCommand;
use std::time::Duration;

use minotty_domain::PlayerId;
use minotty_engine::versus::MatchKind;
use minotty_protocol::{BoardSnapshot, Progress, Report, RoomLimit, RoomSettings, RoomState};
use minotty_ui::{Request, Response};
use tokio::sync::{mpsc, watch};

use crate::services::Who;
use crate::services::versus::{SharedVersus, VersusClient};
use minotty_domain::AccountRef;

mod abuse;
mod bots;
mod climb;
mod contact;
mod drained;
mod fair;
mod garbage;
mod kept;
mod match_replays;
mod open_rooms;
mod out_of_match;
mod paused_queue;
mod paused_room;
mod ranked_series;
mod series;
mod shares;
mod spooled;
mod stock;
mod teams;
mod watching;

struct Client {
    client: Option<VersusClient>,
    rx: mpsc::Receiver<Response>,
}

impl Client {
    /// A client: a registered player on an address of their own (the queue pairs no two
    /// accounts of one address), a guest on loopback.
    fn new(shared: &SharedVersus, name: &str, account: Option<i64>) -> Client {
        let peer = match account {
            Some(id) => {
                std::net::Ipv4Addr::from(0x0a00_0000 | (id as u32 & 0x00ff_ffff)).to_string()
            }
            None => "127.0.0.1".to_owned(),
        };
        Client::connected_from(shared, name, account, &peer)
    }

    /// A client connected from `peer`.
    fn connected_from(
        shared: &SharedVersus,
        name: &str,
        account: Option<i64>,
        peer: &str,
    ) -> Client {
        let (tx, rx) = mpsc::channel(256);
        let (_keep, account) = watch::channel(account.map(|id| AccountRef {
            id: PlayerId(id),
            name: name.to_owned(),
        }));
        let who = Who {
            ssh_user: name.to_owned(),
            identity: crate::services::Identity::Guest,
            peer: peer.parse().unwrap(),
            account,
        };
        Client {
            client: Some(VersusClient::new(shared, who, tx)),
            rx,
        }
    }

    fn send(&mut self, request: Request) {
        self.client.as_mut().unwrap().handle(request);
    }

    fn report(&mut self, reports: Vec<Report>) {
        self.send(Request::Room(RoomCommand::Report { reports }));
    }

    /// The next response for which `f` gives something, skipping others.
    async fn wait<T>(&mut self, mut f: impl FnMut(Response) -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let r = tokio::time::timeout_at(deadline, self.rx.recv())
                .await
                .expect("response in time")
                .expect("channel open");
            if let Some(t) = f(r) {
                return t;
            }
        }
    }

    /// Everything already queued.
    fn drain(&mut self) -> Vec<Response> {
        let mut all = Vec::new();
        while let Ok(r) = self.rx.try_recv() {
            all.push(r);
        }
        all
    }

    async fn room(&mut self) -> minotty_protocol::RoomView {
        self.wait(|r| match r {
            Response::Room(v) => Some(v),
            _ => None,
        })
        .await
    }

    async fn failed(&mut self) -> String {
        self.wait(|r| match r {
            Response::RoomFailed { message } => Some(message),
            _ => None,
        })
        .await
    }
}

fn battle(players: u8) -> RoomSettings {
    RoomSettings::new(MatchKind::Battle, players, RoomLimit::None)
}

fn board(filled_rows: usize) -> BoardSnapshot {
    let mut rows = vec![[0u8; 10]; 20];
    for row in rows.iter_mut().rev().take(filled_rows) {
        *row = [8, 8, 8, 8, 8, 8, 8, 8, 8, 0];
    }
    BoardSnapshot { rows }
}

/// A creates a room, the others join it by code (typed in lower case).
async fn room_of(
    shared: &SharedVersus,
    options: RoomSettings,
    names: &[&str],
) -> (Vec<Client>, String) {
    let mut clients: Vec<Client> = names.iter().map(|n| Client::new(shared, n, None)).collect();
    clients[0].send(Request::CreateRoom(options));
    let code = clients[0].room().await.code;
    for c in clients.iter_mut().skip(1) {
        c.send(Request::JoinRoom {
            code: code.to_lowercase(),
            spectate: false,
        });
        c.room().await;
    }
    (clients, code)
}

/// Starts the match and waits for every player's `MatchStart`.
async fn start(clients: &mut [Client]) -> u32 {
    clients[0].send(Request::Room(RoomCommand::Start));
    let mut seeds = Vec::new();
    for (i, c) in clients.iter_mut().enumerate() {
        let start = c
            .wait(|r| match r {
                Response::MatchStart(s) => Some(s),
                _ => None,
            })
            .await;
        assert_eq!(start.you, Some(i));
        assert_eq!(start.countdown_ms, 3000);
        seeds.push(start.seed);
    }
    assert!(
        seeds.windows(2).all(|w| w[0] == w[1]),
        "one seed: {seeds:?}"
    );
    seeds[0]
}

async fn result(c: &mut Client) -> minotty_protocol::MatchResult {
    c.wait(|r| match r {
        Response::MatchOver(m) => Some(m),
        _ => None,
    })
    .await
}

#[tokio::test(start_paused = true)]
async fn rooms_are_created_and_joined_by_code() {
    let shared = SharedVersus::default();
    let (mut c, code) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    assert_eq!(code.len(), 6);
    let view = c[0].room().await;
    assert_eq!(view.seats.len(), 2);
    assert_eq!(view.you, Some(0));
    assert!(view.host);
    assert_eq!(view.seats[1].name, "bob");
    assert_eq!(view.state, RoomState::Lobby);

    // Full, unknown, malformed.
    let mut cid = Client::new(&shared, "cid", None);
    cid.send(Request::JoinRoom {
        code: code.clone(),
        spectate: false,
    });
    assert!(cid.failed().await.contains("full"));
    let other = if code == "ZZZZZZ" { "YYYYYY" } else { "ZZZZZZ" };
    cid.send(Request::JoinRoom {
        code: other.into(),
        spectate: false,
    });
    assert!(cid.failed().await.starts_with("There is no room"));
    cid.send(Request::JoinRoom {
        code: "K0\x1b[2J".into(),
        spectate: false,
    });
    let msg = cid.failed().await;
    assert!(
        msg.contains("not a room code") && !msg.contains('\x1b'),
        "{msg}"
    );

    // Only the host starts; ready is shown to everyone.
    c[1].send(Request::Room(RoomCommand::Ready { ready: true }));
    let view = c[0].room().await;
    assert!(view.seats[1].ready);
    c[1].send(Request::Room(RoomCommand::Start));
    let notice = c[1]
        .wait(|r| match r {
            Response::Notice { message } => Some(message),
            _ => None,
        })
        .await;
    assert!(notice.contains("host"));

    // The host leaves: bob hosts; bob leaves: the room closes.
    c[0].send(Request::LeaveRoom);
    let view = c[1].room().await;
    assert!(view.host);
    assert_eq!(view.seats.len(), 1);
    c[1].send(Request::LeaveRoom);
    c[1].wait(|r| matches!(r, Response::RoomClosed { .. }).then_some(()))
        .await;
    tokio::time::sleep(Duration::from_millis(10)).await;
    assert_eq!(shared.hub().room_count(), 0);
}

#[tokio::test(start_paused = true)]
async fn attacks_become_garbage_for_the_opponent_and_boards_are_relayed() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    c[0].report(vec![Report::Attack { lines: 4 }, Report::Board(board(3))]);
    let (lines, from) = c[1]
        .wait(|r| match r {
            Response::Garbage { lines, from } => Some((lines, from)),
            _ => None,
        })
        .await;
    assert_eq!((lines, from), (4, 0));
    let opponents = c[1]
        .wait(|r| match r {
            Response::Opponents(o) => Some(o),
            _ => None,
        })
        .await;
    assert_eq!(opponents.len(), 1);
    assert_eq!(opponents[0].name, "ann");
    assert_eq!(opponents[0].board, board(3));
    assert_eq!(opponents[0].target, Some(1));

    // Boards are coalesced: a burst of 100 reports gives at most two sends, a steady stream
    // at most one per 50 ms.
    tokio::time::sleep(Duration::from_millis(200)).await;
    c[1].drain();
    c[0].drain();
    for i in 0..100 {
        c[0].report(vec![Report::Board(board(i % 5))]);
    }
    tokio::time::sleep(Duration::from_millis(80)).await;
    let opponents = |c: &mut Client| {
        c.drain()
            .into_iter()
            .filter(|r| matches!(r, Response::Opponents(_)))
            .count()
    };
    let sends = opponents(&mut c[1]);
    assert!((1..=2).contains(&sends), "{sends} sends");
    let began = tokio::time::Instant::now();
    for i in 0..100 {
        c[0].report(vec![Report::Board(board(i % 5))]);
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let ms = began.elapsed().as_millis() as usize;
    let sends = opponents(&mut c[1]);
    assert!(
        sends >= 2 && sends <= ms / 50 + 2,
        "{sends} sends in {ms} ms"
    );
    // Ann's own boards are news to bob only: bob's board did not change, so ann was sent
    // nothing (each `Opponents` costs its receiver a frame).
    tokio::time::sleep(Duration::from_millis(80)).await;
    assert_eq!(opponents(&mut c[0]), 0);
    c[1].drain();
    c[1].report(vec![Report::Board(board(1))]);
    let o = c[0]
        .wait(|r| match r {
            Response::Opponents(o) => Some(o),
            _ => None,
        })
        .await;
    assert_eq!(o[0].board, board(1));
    tokio::time::sleep(Duration::from_millis(80)).await;
    assert_eq!(opponents(&mut c[1]), 0, "bob's own board is no news to bob");
}

#[tokio::test(start_paused = true)]
async fn a_disconnect_ends_a_1v1_and_the_other_player_wins() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    c[1].report(vec![Report::Progress(Progress {
        lines: 3,
        pieces: 20,
        time_ms: 10_000,
        ..Progress::default()
    })]);
    drop(c[0].client.take());
    let result = result(&mut c[1]).await;
    assert_eq!(result.you, Some(1));
    assert_eq!(result.rows[0].name, "bob");
    assert_eq!(result.rows[0].place, 1);
    assert!((result.rows[0].pieces_per_second - 2.0).abs() < 1e-9);
    assert_eq!(result.rows[1].name, "ann");
    assert!(result.rows[1].forfeited);
    assert!(!result.ranked);
    let view = c[1].room().await;
    assert_eq!(view.state, RoomState::Results);
    assert_eq!(
        view.seats.len(),
        1,
        "the seat of who left is freed after the match"
    );
}

#[tokio::test(start_paused = true)]
async fn a_race_ends_when_one_player_clears_40_lines() {
    let shared = SharedVersus::default();
    let options = RoomSettings::new(MatchKind::Race, 4, RoomLimit::Seconds(5));
    let (mut c, _) = room_of(&shared, options, &["ann", "bob", "cid"]).await;
    start(&mut c).await;
    // Attacks in a race go nowhere.
    c[0].report(vec![Report::Attack { lines: 4 }]);
    let progress = |lines| Progress {
        lines,
        pieces: lines * 3,
        time_ms: 30_000,
        ..Progress::default()
    };
    c[2].report(vec![Report::Progress(progress(12))]);
    // Not a win below 40 lines: cid's claim knocks cid out instead.
    c[1].report(vec![Report::Finished {
        won: true,
        progress: progress(39),
    }]);
    c[0].report(vec![Report::Finished {
        won: true,
        progress: Progress {
            time_ms: 41_630,
            ..progress(40)
        },
    }]);
    let result = result(&mut c[2]).await;
    let names: Vec<(&str, u8)> = result
        .rows
        .iter()
        .map(|r| (r.name.as_str(), r.place))
        .collect();
    assert_eq!(names, [("ann", 1), ("cid", 2), ("bob", 3)]);
    // The results can tell the finish time and the pace from the counts.
    let ann = &result.rows[0];
    assert_eq!((ann.time_ms, ann.pieces, ann.lines), (41_630, 120, 40));
    assert_eq!(
        (result.rows[1].time_ms, result.rows[1].pieces),
        (30_000, 36)
    );
    assert!(
        c[1].drain()
            .iter()
            .all(|r| !matches!(r, Response::Garbage { .. }))
    );
}

#[tokio::test(start_paused = true)]
async fn a_battle_time_limit_goes_to_the_most_attack() {
    let shared = SharedVersus::default();
    let options = RoomSettings::new(MatchKind::Battle, 3, RoomLimit::Seconds(10));
    let (mut c, _) = room_of(&shared, options, &["ann", "bob", "cid"]).await;
    start(&mut c).await;
    c[1].report(vec![
        Report::Attack { lines: 2 },
        Report::Attack { lines: 1 },
    ]);
    c[2].report(vec![Report::Attack { lines: 1 }]);
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert!(
        c[0].drain()
            .iter()
            .all(|r| !matches!(r, Response::MatchOver(_)))
    );
    let result = result(&mut c[0]).await;
    let names: Vec<&str> = result.rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["bob", "cid", "ann"]);
}

#[tokio::test(start_paused = true)]
async fn spectators_see_every_board_and_the_result() {
    let shared = SharedVersus::default();
    let (mut c, code) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    let mut eve = Client::new(&shared, "eve", None);
    eve.send(Request::JoinRoom {
        code: code.clone(),
        spectate: false,
    });
    assert!(eve.failed().await.contains("spectator"));
    eve.send(Request::JoinRoom {
        code,
        spectate: true,
    });
    let start = eve
        .wait(|r| match r {
            Response::MatchStart(s) => Some(s),
            _ => None,
        })
        .await;
    assert_eq!(start.you, None);
    assert_eq!(start.players, ["ann", "bob"]);
    c[0].report(vec![Report::Board(board(2))]);
    c[1].report(vec![Report::Board(board(5))]);
    let seen = eve
        .wait(|r| match r {
            Response::Opponents(o) if o.len() == 2 && o[1].board == board(5) => Some(o),
            _ => None,
        })
        .await;
    assert_eq!(seen[0].board, board(2));
    c[0].report(vec![Report::Finished {
        won: false,
        progress: Progress::default(),
    }]);
    let result = result(&mut eve).await;
    assert_eq!(result.you, None);
    assert_eq!(result.rows[0].name, "bob");
    assert_eq!(result.rows[0].kos, 0);
}

#[tokio::test(start_paused = true)]
async fn four_players_with_kos_and_rematch() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(4), &["ann", "bob", "cid", "dan"]).await;
    start(&mut c).await;
    // ann attacks: even targeting spreads over bob, cid, dan.
    for _ in 0..3 {
        c[0].report(vec![Report::Attack { lines: 2 }]);
    }
    for c in c.iter_mut().skip(1) {
        c.wait(|r| matches!(r, Response::Garbage { lines: 2, from: 0 }).then_some(()))
            .await;
    }
    let out = Report::Finished {
        won: false,
        progress: Progress::default(),
    };
    c[1].report(vec![out.clone()]);
    c[2].report(vec![out.clone()]);
    c[3].report(vec![out]);
    let result = result(&mut c[0]).await;
    let names: Vec<(&str, u8)> = result
        .rows
        .iter()
        .map(|r| (r.name.as_str(), r.place))
        .collect();
    assert_eq!(names, [("ann", 1), ("dan", 2), ("cid", 3), ("bob", 4)]);
    assert_eq!(result.rows[0].kos, 3);
    // Everyone asks for a rematch: it starts.
    for c in c.iter_mut() {
        c.send(Request::Room(RoomCommand::Rematch));
    }
    start_seen(&mut c).await;
}

async fn start_seen(clients: &mut [Client]) {
    for c in clients.iter_mut() {
        c.wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
            .await;
    }
}

#[tokio::test(start_paused = true)]
async fn quick_match_pairs_registered_players_and_rates_the_result() {
    let shared = SharedVersus::default();
    let mut guest = Client::new(&shared, "guest", None);
    guest.send(Request::QuickMatch);
    assert!(guest.failed().await.contains("registered"));

    let mut ann = Client::new(&shared, "ann", Some(1));
    let mut bob = Client::new(&shared, "bob", Some(2));
    ann.send(Request::QuickMatch);
    let (rating, range) = ann
        .wait(|r| match r {
            Response::Queued { rating, range, .. } => Some((rating, range)),
            _ => None,
        })
        .await;
    assert_eq!((rating, range), (1500, 100));
    tokio::time::sleep(Duration::from_secs(3)).await;
    let widened = ann
        .drain()
        .into_iter()
        .filter_map(|r| match r {
            Response::Queued { range, .. } => Some(range),
            _ => None,
        })
        .max();
    assert!(widened > Some(100), "{widened:?}");

    bob.send(Request::QuickMatch);
    for c in [&mut ann, &mut bob] {
        let start = c
            .wait(|r| match r {
                Response::MatchStart(s) => Some(s),
                _ => None,
            })
            .await;
        assert!(start.ranked);
        assert_eq!(start.kind, MatchKind::Battle);
    }
    // At 1500 a ranked match is a series, first to 3 (`minotty_domain::ranked`).
    let result = ranked_series::ann_wins_the_series(&mut ann, &mut bob, 3).await;
    assert!(result.ranked);
    let (before, after) = result.rows[0].rating.unwrap();
    assert_eq!(result.rows[0].name, "ann");
    assert!(
        (before - 1500.0).abs() < 1e-9 && after > 1600.0,
        "{before} -> {after}"
    );
    let (before, after) = result.rows[1].rating.unwrap();
    assert!(
        (before - 1500.0).abs() < 1e-9 && after < 1400.0,
        "{before} -> {after}"
    );
    // The new rating is what the queue uses next, and what a rematch starts from.
    let first = after_of(&result, "ann");
    assert!((shared.hub().rating_of(PlayerId(1)).await.rating - first).abs() < 1e-9);
    ann.send(Request::Room(RoomCommand::Rematch));
    bob.send(Request::Room(RoomCommand::Rematch));
    for c in [&mut ann, &mut bob] {
        c.wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
            .await;
    }
    let again = ranked_series::ann_wins_the_series(&mut ann, &mut bob, 3).await;
    let (before, after) = again.rows[0].rating.unwrap();
    assert!(
        (before - first).abs() < 1e-9 && after > first,
        "{before} -> {after}"
    );
}

fn after_of(result: &minotty_protocol::MatchResult, name: &str) -> f64 {
    result
        .rows
        .iter()
        .find(|r| r.name == name)
        .and_then(|r| r.rating)
        .map(|(_, a)| a)
        .unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_player_is_not_paired() {
    let shared = SharedVersus::default();
    let mut ann = Client::new(&shared, "ann", Some(1));
    let mut bob = Client::new(&shared, "bob", Some(2));
    ann.send(Request::QuickMatch);
    ann.wait(|r| matches!(r, Response::Queued { .. }).then_some(()))
        .await;
    ann.send(Request::CancelQuickMatch);
    bob.send(Request::QuickMatch);
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(
        ann.drain()
            .iter()
            .all(|r| !matches!(r, Response::MatchStart(_)))
    );
    assert!(
        bob.drain()
            .iter()
            .all(|r| !matches!(r, Response::MatchStart(_)))
    );
}

#[tokio::test(start_paused = true)]
async fn a_player_who_drops_out_is_told_the_result_when_back() {
    let shared = SharedVersus::default();
    let mut ann = Client::new(&shared, "ann", Some(1));
    let mut bob = Client::new(&shared, "bob", Some(2));
    let mut cid = Client::new(&shared, "cid", None);
    ann.send(Request::CreateRoom(battle(3)));
    let code = ann.room().await.code;
    for c in [&mut bob, &mut cid] {
        c.send(Request::JoinRoom {
            code: code.clone(),
            spectate: false,
        });
        c.room().await;
    }
    ann.send(Request::Room(RoomCommand::Start));
    ann.wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
        .await;
    drop(bob.client.take());
    tokio::time::sleep(Duration::from_millis(10)).await;
    let mut back = Client::new(&shared, "bob", Some(2));
    let notice = back
        .wait(|r| match r {
            Response::Notice { message } => Some(message),
            _ => None,
        })
        .await;
    assert!(notice.contains("still running"), "{notice}");
    cid.report(vec![Report::Finished {
        won: false,
        progress: Progress::default(),
    }]);
    result(&mut ann).await;
    let mut again = Client::new(&shared, "bob", Some(2));
    let notice = again
        .wait(|r| match r {
            Response::Notice { message } => Some(message),
            _ => None,
        })
        .await;
    assert!(
        notice.contains("ann won") && notice.contains("placed 3 of 3"),
        "{notice}"
    );
    // Told once.
    let mut third = Client::new(&shared, "bob", Some(2));
    tokio::time::sleep(Duration::from_millis(10)).await;
    assert!(third.drain().is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_top_out_after_the_opponents_garbage_is_their_ko() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    c[0].report(vec![Report::Attack { lines: 4 }]);
    c[1].wait(|r| matches!(r, Response::Garbage { lines: 4, from: 0 }).then_some(()))
        .await;
    // bob's own attack (after cancelling) in the same report as the top-out.
    c[1].report(vec![
        Report::Attack { lines: 1 },
        Report::Board(board(20)),
        Report::Finished {
            won: false,
            progress: Progress::default(),
        },
    ]);
    for c in c.iter_mut() {
        let result = result(c).await;
        assert_eq!(result.rows[0].name, "ann");
        assert_eq!(result.rows[0].kos, 1, "{:?}", result.rows);
        assert_eq!(result.rows[1].kos, 0);
        assert!(!result.rows[1].forfeited, "a top-out is not a forfeit");
    }
}

#[tokio::test(start_paused = true)]
async fn a_forfeit_from_the_prompt_is_shown_as_left_not_as_a_top_out() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    c[0].report(vec![Report::Attack { lines: 2 }]);
    c[1].wait(|r| matches!(r, Response::Garbage { lines: 2, from: 0 }).then_some(()))
        .await;
    c[1].report(vec![Report::Forfeited {
        progress: Progress {
            lines: 2,
            ..Progress::default()
        },
    }]);
    for c in c.iter_mut() {
        let result = result(c).await;
        assert_eq!(result.rows[0].name, "ann");
        assert_eq!(result.rows[0].place, 1);
        assert_eq!(result.rows[1].name, "bob");
        assert!(result.rows[1].forfeited, "{:?}", result.rows);
        assert_eq!(result.rows[1].lines, 2);
    }
    // bob is still in the room (unlike leaving): a rematch is possible.
    let view = c[1].room().await;
    assert_eq!(view.seats.len(), 2);
    assert_eq!(view.state, RoomState::Results);
}

#[tokio::test(start_paused = true)]
async fn garbage_and_the_match_end_reach_a_session_whose_queue_is_full() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    c[1].drain();
    // bob reads nothing while ann sends far more than his queue (256) holds, each attack
    // with a board (coalesced Opponents may be dropped; garbage never).
    const ATTACKS: usize = 600;
    for i in 0..ATTACKS {
        c[0].report(vec![
            Report::Attack {
                lines: (i % 4 + 1) as u8,
            },
            Report::Board(board(i % 5)),
        ]);
        if i % 100 == 0 {
            tokio::time::sleep(Duration::from_millis(60)).await;
        }
    }
    c[1].report(vec![Report::Finished {
        won: false,
        progress: Progress::default(),
    }]);
    // Every garbage, in order, then the result.
    let mut got = Vec::new();
    let result = loop {
        match c[1].wait(Some).await {
            Response::Garbage { lines, from } => {
                assert_eq!(from, 0);
                got.push(lines);
            }
            Response::MatchOver(m) => break m,
            _ => {}
        }
    };
    let sent: Vec<u8> = (0..ATTACKS).map(|i| (i % 4 + 1) as u8).collect();
    assert_eq!(got.len(), ATTACKS, "garbage dropped");
    assert_eq!(got, sent);
    assert_eq!(result.rows[0].name, "ann");
}

#[tokio::test]
async fn a_session_tx_drops_only_opponents_when_full_and_keeps_the_order() {
    let (tx, mut rx) = mpsc::channel(2);
    let out = super::SessionTx::new(tx);
    let garbage = |lines| Response::Garbage { lines, from: 0 };
    assert!(out.send(garbage(1)));
    assert!(out.send(Response::Opponents(Vec::new())));
    // Full: garbage waits, opponents go.
    assert!(out.send(garbage(2)));
    assert!(!out.send(Response::Opponents(Vec::new())));
    assert!(out.send(garbage(3)));
    assert_eq!(out.backlog_len(), 2);
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push(rx.recv().await.expect("open"));
    }
    assert!(matches!(seen[0], Response::Garbage { lines: 1, .. }));
    assert!(matches!(seen[1], Response::Opponents(_)));
    assert!(matches!(seen[2], Response::Garbage { lines: 2, .. }));
    assert!(matches!(seen[3], Response::Garbage { lines: 3, .. }));
    // Drained: straight into the queue again.
    tokio::task::yield_now().await;
    assert_eq!(out.backlog_len(), 0);
    assert!(out.send(Response::Opponents(Vec::new())));
    drop(rx);
    assert!(!out.send(garbage(4)));
}

async fn temp_store() -> (tempfile::TempDir, minotty_store::Store) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("minotty.db").display());
    let store = minotty_store::Store::open(&url).await.unwrap();
    (dir, store)
}

/// How many of the matches 1..=n are in the store.
async fn stored_matches(store: &minotty_store::Store, n: i64) -> usize {
    let mut stored = 0;
    for id in 1..=n {
        if !store
            .match_players(minotty_store::MatchId(id))
            .await
            .unwrap()
            .is_empty()
        {
            stored += 1;
        }
    }
    stored
}

async fn closed(c: &mut Client) -> String {
    c.wait(|r| match r {
        Response::RoomClosed { message } => Some(message),
        _ => None,
    })
    .await
}

#[tokio::test]
async fn a_decided_match_waiting_for_replays_is_stored_at_shutdown() {
    let (_dir, store) = temp_store().await;
    let shared = SharedVersus::new(Some(store.clone()), None);
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    c[1].report(vec![Report::Finished {
        won: false,
        progress: Progress::default(),
    }]);
    result(&mut c[0]).await;
    // ann's replay never comes: the room would wait 5 s for it. Shutdown does not. On
    // tokio's paused clock until the room has closed (nothing in between waits on the
    // database, which would let the paused clock jump): a room that waited for the replay
    // would let it run ahead to the grace's end (REPLAY_GRACE after the result, a moment
    // ago), one that did not leaves it where it was. Then real time again for the database.
    tokio::time::pause();
    let began = tokio::time::Instant::now();
    let (unwritten, ()) = tokio::join!(shared.hub().shutdown(Duration::from_secs(20)), async {
        // The players still connected are told; the room is gone.
        for c in c.iter_mut() {
            assert!(closed(c).await.contains("restarting"));
        }
        let waited = began.elapsed();
        assert!(
            waited < super::REPLAY_GRACE / 5,
            "the room waited {waited:?} (paused clock)"
        );
        tokio::time::resume();
    });
    assert_eq!(unwritten, 0);
    let players = store
        .match_players(minotty_store::MatchId(1))
        .await
        .unwrap();
    assert_eq!(players.len(), 2);
    assert_eq!(players[0].name, "ann");
    assert_eq!(players[0].place, 1);
    assert_eq!(shared.hub().room_count(), 0);
}

#[tokio::test]
async fn a_match_in_progress_at_shutdown_is_abandoned_not_decided() {
    let (_dir, store) = temp_store().await;
    let shared = SharedVersus::new(Some(store.clone()), None);
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    c[0].report(vec![Report::Attack { lines: 2 }]);
    c[1].wait(|r| matches!(r, Response::Garbage { .. }).then_some(()))
        .await;
    // The server begins shutting down; ann's session happens to end first.
    shared.hub().begin_shutdown();
    drop(c[0].client.take());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let unwritten = shared.hub().shutdown(Duration::from_secs(20)).await;
    assert_eq!(unwritten, 0);
    let seen = c[1].drain();
    assert!(
        !seen.iter().any(|r| matches!(r, Response::MatchOver(_))),
        "bob did not win by ann's session ending at shutdown: {seen:?}"
    );
    assert!(
        seen.iter().any(
            |r| matches!(r, Response::RoomClosed { message } if message.contains("restarting"))
        )
    );
    assert_eq!(stored_matches(&store, 1).await, 0);
}

#[tokio::test]
async fn the_recorder_writes_or_reports_every_match_at_shutdown() {
    let (_dir, store) = temp_store().await;
    let m = |i: u32| minotty_store::NewMatch {
        kind: MatchKind::Battle,
        ranked: false,
        room: "K7PQ".into(),
        seed: i,
        started_at: 1_000,
        ended_at: 2_000,
        players: (0..2)
            .map(|seat| minotty_store::MatchPlayer {
                seat,
                player: None,
                name: format!("p{seat}"),
                place: seat + 1,
                kos: 0,
                forfeited: false,
                lines: 0,
                pieces: 0,
                attack_sent: 0,
                garbage_received: 0,
                time_ms: 0,
                rating: None,
                replay: None,
                bot: None,
                replay_check: None,
            })
            .collect(),
        settings: None,
    };
    // Given time, everything queued is written before `finish` returns.
    let recorder = super::record::Recorder::spawn(store.clone(), None);
    for i in 0..20 {
        recorder.record(m(i));
    }
    assert!(recorder.pending() > 0);
    assert_eq!(recorder.finish(Duration::from_secs(20)).await, 0);
    assert_eq!(stored_matches(&store, 20).await, 20);
    // Given none, what was not written is counted (and logged), never silently lost.
    let recorder = super::record::Recorder::spawn(store.clone(), None);
    for i in 0..20 {
        recorder.record(m(i));
    }
    let unwritten = recorder.finish(Duration::ZERO).await;
    assert!(unwritten > 0);
    let stored = stored_matches(&store, 40).await - 20;
    assert!(
        stored + unwritten >= 20,
        "{stored} stored, {unwritten} reported"
    );
}
