//! Bots in rooms and the quick match's bot offer, driven through `VersusClient`s: a bot plays
//! a real game whose board reaches its opponent, only the host seats and removes bots, the
//! caps hold against a host who spams, a match with a bot is never rated and is stored with
//! the bot marked (its replay verifies), and the queue offers a bot match after the wait
//! (again after a decline).

use minotty_protocol::RoomCommand;
use std::time::Duration;

use minotty_domain::PlayerId;
use minotty_engine::Replay;
use minotty_protocol::{MatchStart, Progress, Report, RoomView};
use minotty_ui::{Request, Response};

use super::{Client, battle, result, room_of, stored_matches, temp_store};
use crate::services::versus::SharedVersus;
use crate::versus::bot::BotLimits;
use minotty_store::MatchId;

fn shared_with(limits: BotLimits) -> SharedVersus {
    SharedVersus::with_bots(None, Some(11), limits)
}

/// The next room view with `n` seats.
async fn seats(c: &mut Client, n: usize) -> RoomView {
    loop {
        let v = c.room().await;
        if v.seats.len() == n {
            return v;
        }
    }
}

async fn notice(c: &mut Client) -> String {
    c.wait(|r| match r {
        Response::Notice { message } => Some(message),
        _ => None,
    })
    .await
}

async fn match_start(c: &mut Client) -> MatchStart {
    c.wait(|r| match r {
        Response::MatchStart(s) => Some(s),
        _ => None,
    })
    .await
}

/// Waits until `f` holds (the bots' tasks end on their own time).
async fn eventually(mut f: impl FnMut() -> bool) {
    for _ in 0..200 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("never happened");
}

#[tokio::test]
async fn a_bot_plays_a_real_game_its_opponent_sees_and_wins_when_they_top_out() {
    let shared = shared_with(BotLimits::default());
    let (mut c, _) = room_of(&shared, battle(2), &["ann"]).await;
    c[0].send(Request::Room(RoomCommand::AddBot { level: 7 }));
    let view = seats(&mut c[0], 2).await;
    assert_eq!(view.seats[1].name, "Bot level 7");
    assert_eq!(view.seats[1].bot, Some(7));
    assert!(view.seats[1].ready, "bots are ready");
    assert_eq!(view.seats[1].rating, None);
    assert_eq!(shared.hub().bots.active(), 1);
    c[0].send(Request::Room(RoomCommand::Start));
    let start = match_start(&mut c[0]).await;
    assert_eq!(start.players, ["ann", "Bot level 7"]);
    assert!(!start.ranked);
    // The bot's board fills as it plays: locked cells reach ann within a few seconds.
    let cells = c[0]
        .wait(|r| match r {
            Response::Opponents(list) => {
                let filled = list[0]
                    .board
                    .rows
                    .iter()
                    .skip(4)
                    .flatten()
                    .filter(|&&c| c != 0)
                    .count();
                (list[0].progress.pieces >= 5).then_some(filled)
            }
            _ => None,
        })
        .await;
    assert!(cells >= 4, "{cells}");
    c[0].report(vec![Report::Finished {
        won: false,
        progress: Progress::default(),
    }]);
    let result = result(&mut c[0]).await;
    assert!(!result.ranked);
    assert_eq!(result.rows[0].name, "Bot level 7");
    assert_eq!(result.rows[0].place, 1);
    assert!(
        result.rows[0].pieces_per_second > 1.0,
        "{:?}",
        result.rows[0]
    );
    assert!(result.rows.iter().all(|r| r.rating.is_none()));
    // A rematch needs only the person: the bot is ready again.
    c[0].send(Request::Room(RoomCommand::Rematch));
    match_start(&mut c[0]).await;
}

#[tokio::test]
async fn only_the_host_seats_and_removes_bots_and_each_bot_is_counted_until_it_goes() {
    let shared = shared_with(BotLimits::default());
    let (mut c, _) = room_of(&shared, battle(4), &["ann", "bob"]).await;
    c[1].send(Request::Room(RoomCommand::AddBot { level: 2 }));
    assert!(notice(&mut c[1]).await.contains("Only the host"));
    c[0].send(Request::Room(RoomCommand::AddBot { level: 2 }));
    c[0].send(Request::Room(RoomCommand::AddBot { level: 5 }));
    let view = seats(&mut c[0], 4).await;
    assert_eq!(view.seats[2].bot, Some(2));
    assert_eq!(view.seats[3].bot, Some(5));
    assert_eq!(shared.hub().bots.active(), 2);
    c[0].send(Request::Room(RoomCommand::AddBot { level: 9 }));
    assert!(notice(&mut c[0]).await.contains("full"));
    c[1].send(Request::Room(RoomCommand::RemoveBot { seat: 2 }));
    assert!(notice(&mut c[1]).await.contains("Only the host"));
    // A seat that is a person is not a bot to remove.
    c[0].send(Request::Room(RoomCommand::RemoveBot { seat: 1 }));
    c[0].send(Request::Room(RoomCommand::RemoveBot { seat: 2 }));
    let view = seats(&mut c[0], 3).await;
    assert_eq!(view.seats[1].name, "bob");
    assert_eq!(view.seats[2].bot, Some(5));
    eventually(|| shared.hub().bots.active() == 1).await;
    // Every person leaves: the room closes and its bots go with it.
    c[1].send(Request::LeaveRoom);
    c[0].send(Request::LeaveRoom);
    eventually(|| shared.hub().bots.active() == 0 && shared.hub().room_count() == 0).await;
}

#[tokio::test]
async fn a_host_spamming_add_bot_never_passes_the_room_or_the_server_cap() {
    // Both hosts are guests on loopback, one address: its share is the server's cap here
    // (the share itself: `tests/shares.rs`).
    let shared = shared_with(BotLimits {
        max_total: 10,
        per_address: 10,
        ..BotLimits::default()
    });
    // Each host spams far more requests than seats; the request bucket lets a burst through.
    let (mut a, _) = room_of(&shared, battle(8), &["ann"]).await;
    let (mut b, _) = room_of(&shared, battle(8), &["bob"]).await;
    for _ in 0..200 {
        a[0].send(Request::Room(RoomCommand::AddBot { level: 7 }));
    }
    // ann's room fills (7 bots beside her); bob gets what is left of the server's 10.
    seats(&mut a[0], 8).await;
    for _ in 0..200 {
        b[0].send(Request::Room(RoomCommand::AddBot { level: 7 }));
    }
    seats(&mut b[0], 4).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(shared.hub().bots.active(), 10);
    let told: Vec<String> = b[0]
        .drain()
        .into_iter()
        .filter_map(|r| match r {
            Response::Notice { message } => Some(message),
            _ => None,
        })
        .collect();
    assert!(
        told.iter()
            .any(|m| m.contains("as many bots as it can") || m.contains("Too many requests")),
        "{told:?}"
    );
    // More time, more requests: still capped.
    tokio::time::sleep(Duration::from_secs(2)).await;
    for _ in 0..50 {
        a[0].send(Request::Room(RoomCommand::AddBot { level: 7 }));
        b[0].send(Request::Room(RoomCommand::AddBot { level: 7 }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(shared.hub().bots.active(), 10);
    // When ann's room closes its bots are freed for bob.
    a[0].send(Request::LeaveRoom);
    eventually(|| shared.hub().bots.active() == 3).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    b[0].send(Request::Room(RoomCommand::AddBot { level: 1 }));
    seats(&mut b[0], 5).await;
}

#[tokio::test]
async fn a_ranked_room_takes_no_bot() {
    let shared = shared_with(BotLimits::default());
    let mut ann = Client::new(&shared, "ann", Some(1));
    let mut bob = Client::new(&shared, "bob", Some(2));
    ann.send(Request::QuickMatch);
    bob.send(Request::QuickMatch);
    match_start(&mut ann).await;
    ann.send(Request::Room(RoomCommand::AddBot { level: 3 }));
    assert!(notice(&mut ann).await.contains("ranked"));
    assert_eq!(shared.hub().bots.active(), 0);
}

#[tokio::test]
async fn a_match_against_a_bot_is_never_rated_and_is_stored_with_the_bot_marked() {
    let (_dir, store) = temp_store().await;
    let key = minotty_store::NewKey {
        fingerprint: minotty_domain::KeyFingerprint::parse(&format!("SHA256:{:0>43}", "botmatch"))
            .unwrap(),
        algorithm: "ssh-ed25519".into(),
    };
    let account = store
        .register(&minotty_domain::PlayerName::parse("ann").unwrap(), &key, 1)
        .await
        .unwrap();
    let shared = SharedVersus::with_bots(Some(store.clone()), Some(5), BotLimits::default());
    let mut ann = Client::new(&shared, "ann", Some(account.id.0));
    ann.send(Request::CreateRoom(battle(2)));
    ann.room().await;
    ann.send(Request::Room(RoomCommand::AddBot { level: 6 }));
    seats(&mut ann, 2).await;
    ann.send(Request::Room(RoomCommand::Start));
    let start = match_start(&mut ann).await;
    // Let the bot play a few seconds, then ann gives up with her (empty) game's replay.
    tokio::time::sleep(Duration::from_millis(3000 + 3000)).await;
    let game = minotty_engine::Game::new(
        minotty_engine::GameConfig {
            mode: start.mode.clone(),
            ..minotty_engine::GameConfig::default()
        },
        start.seed,
    );
    ann.report(vec![
        Report::Forfeited {
            progress: Progress::default(),
        },
        Report::Replay(Box::new(game.replay())),
    ]);
    let result = result(&mut ann).await;
    assert!(!result.ranked);
    assert!(result.rows.iter().all(|r| r.rating.is_none()));
    let mut stored = 0;
    for _ in 0..100 {
        stored = stored_matches(&store, 1).await;
        if stored == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(stored, 1);
    let players = store.match_players(MatchId(1)).await.unwrap();
    assert_eq!(players.len(), 2);
    assert_eq!(players[0].bot, None);
    assert_eq!(players[0].player, Some(account.id));
    assert_eq!(players[1].bot.as_deref(), Some("level 6"));
    assert_eq!(players[1].player, None);
    assert_eq!(players[1].name, "Bot level 6");
    assert!(players.iter().all(|p| p.rating.is_none()));
    assert_eq!(store.rating_of(account.id).await.unwrap(), None);
    // The bot's game is stored like a player's and re-simulates to what it reported.
    let replay = Replay::from_bytes(players[1].replay.as_deref().expect("the bot's replay"))
        .expect("decodes");
    let verified = replay.verify().expect("verifies");
    assert!(verified.stats.pieces >= 5, "{:?}", verified.stats);
    // The room stops listening at the end; a last lock may come after its last progress.
    assert!(
        verified.stats.pieces.abs_diff(players[1].pieces) <= 1,
        "{} / {}",
        verified.stats.pieces,
        players[1].pieces
    );
}

#[tokio::test]
async fn the_queue_offers_a_bot_match_after_the_wait_and_a_decline_keeps_waiting() {
    let shared = shared_with(BotLimits {
        offer_after: Duration::from_secs(1),
        ..BotLimits::default()
    });
    let mut ann = Client::new(&shared, "ann", Some(1));
    ann.send(Request::QuickMatch);
    let level = ann
        .wait(|r| match r {
            Response::BotOffer { level } => Some(level),
            _ => None,
        })
        .await;
    assert_eq!(level, 3, "a new player's rating (1500) gets level 3");
    ann.send(Request::DeclineBotMatch);
    // Declined: offered again after another wait, and still queued.
    ann.wait(|r| matches!(r, Response::BotOffer { .. }).then_some(()))
        .await;
    ann.send(Request::DeclineBotMatch);
    // Still queued: a person who comes is paired, ranked.
    let mut bob = Client::new(&shared, "bob", Some(2));
    bob.send(Request::QuickMatch);
    let start = match_start(&mut ann).await;
    assert!(start.ranked);
    assert_eq!(start.players, ["ann", "bob"]);

    // Another player alone takes the offer: an unranked match against the bot at once.
    let mut cat = Client::new(&shared, "cat", Some(3));
    cat.send(Request::QuickMatch);
    cat.wait(|r| matches!(r, Response::BotOffer { .. }).then_some(()))
        .await;
    cat.send(Request::AcceptBotMatch);
    let start = match_start(&mut cat).await;
    assert!(!start.ranked);
    assert_eq!(start.players, ["cat", "Bot level 3"]);
    assert_eq!(start.you, Some(0));
    // The queue let go of the account's ranked claim: it may queue again later.
    let hub = shared.hub();
    eventually(|| {
        hub.claim_ranked(PlayerId(3))
            .map(|c| hub.release_ranked(c))
            .is_some()
    })
    .await;
}

#[tokio::test(start_paused = true)]
async fn no_bot_is_offered_when_the_server_runs_none() {
    let shared = shared_with(BotLimits {
        max_total: 0,
        offer_after: Duration::from_millis(10),
        ..BotLimits::default()
    });
    let mut ann = Client::new(&shared, "ann", Some(1));
    ann.send(Request::QuickMatch);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let offers = ann
        .drain()
        .into_iter()
        .filter(|r| matches!(r, Response::BotOffer { .. }))
        .count();
    assert_eq!(offers, 0);
    // Accepting an offer never made does nothing.
    ann.send(Request::AcceptBotMatch);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        ann.drain()
            .iter()
            .all(|r| !matches!(r, Response::MatchStart(_)))
    );
}

/// A driver that is not the built-in bot: it hard drops every piece at once (or, with
/// `panic_after`, panics on that many'th call), to show that rooms take any [`BotDriver`].
#[derive(Debug)]
struct Dropper {
    calls: u32,
    panic_after: Option<u32>,
    released: bool,
}

impl crate::versus::bot::BotDriver for Dropper {
    fn name(&self) -> String {
        "Bot dropper".into()
    }
    fn kind(&self) -> String {
        "dropper".into()
    }
    fn level(&self) -> Option<u8> {
        None
    }
    fn start(&mut self, _game: &minotty_engine::Game, _seed: u32) {}
    fn poll(
        &mut self,
        game: &minotty_engine::Game,
        now: minotty_engine::Time,
    ) -> crate::versus::bot::BotStep {
        use crate::versus::bot::BotStep;
        use minotty_engine::{Button, Input};
        self.calls += 1;
        if self.panic_after.is_some_and(|n| self.calls >= n) {
            panic!("a test driver panics");
        }
        if game.active().is_none() {
            return BotStep::Idle;
        }
        self.released = !self.released;
        if self.released {
            BotStep::Input(Input::Press(Button::HardDrop))
        } else {
            // One piece every 100 ms.
            let _ = now;
            BotStep::Input(Input::Release(Button::HardDrop))
        }
    }
    fn ready(&mut self) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(std::future::pending())
    }
}

/// The room ann hosts alone, its link, and her client.
async fn alone(shared: &SharedVersus) -> (Client, crate::versus::RoomLink) {
    let (mut c, code) = room_of(shared, battle(2), &["ann"]).await;
    let link = shared
        .hub()
        .room(&minotty_domain::RoomCode::canonical(&code).expect("a code"))
        .expect("the room");
    let ann = c.remove(0);
    (ann, link)
}

#[tokio::test]
async fn a_room_takes_another_kind_of_bot_through_the_driver_seam() {
    let shared = shared_with(BotLimits::default());
    let (mut ann, link) = alone(&shared).await;
    link.send(crate::versus::RoomMsg::SeatDriver(Box::new(Dropper {
        calls: 0,
        panic_after: None,
        released: false,
    })));
    let view = seats(&mut ann, 2).await;
    assert_eq!(view.seats[1].name, "Bot dropper");
    assert_eq!(view.seats[1].bot, Some(0));
    ann.send(Request::Room(RoomCommand::Start));
    match_start(&mut ann).await;
    // It drops every piece in the middle: it tops out, and ann wins.
    let result = result(&mut ann).await;
    assert_eq!(result.rows[0].name, "ann");
    assert!(
        result.rows[1].pieces_per_second > 0.0,
        "{:?}",
        result.rows[1]
    );
}

#[tokio::test]
async fn a_bot_that_panics_leaves_and_forfeits_and_the_match_still_ends() {
    let shared = shared_with(BotLimits::default());
    let (mut ann, link) = alone(&shared).await;
    link.send(crate::versus::RoomMsg::SeatDriver(Box::new(Dropper {
        calls: 0,
        panic_after: Some(5),
        released: false,
    })));
    seats(&mut ann, 2).await;
    ann.send(Request::Room(RoomCommand::Start));
    match_start(&mut ann).await;
    let result = result(&mut ann).await;
    assert_eq!(result.rows[0].name, "ann");
    assert!(result.rows[1].forfeited, "{:?}", result.rows[1]);
    // Its place in the server's count came back, and the room goes on without it.
    eventually(|| shared.hub().bots.active() == 0).await;
    let view = seats(&mut ann, 1).await;
    assert_eq!(view.seats[0].name, "ann");
}
