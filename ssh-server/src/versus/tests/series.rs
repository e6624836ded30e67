//! A series of games in one room, and the host's settings changes (bounded).

use minotty_engine::versus::SeriesSettings;
use minotty_protocol::{Progress, Report, RoomCommand};
use minotty_ui::{Request, Response};

use super::{Client, battle, result, room_of, start, start_seen};
use crate::services::versus::SharedVersus;
use crate::versus::limits;

fn top_out() -> Vec<Report> {
    vec![Report::Finished {
        won: false,
        progress: Progress::default(),
    }]
}

/// First to 3: ann, bob, ann, ann. Each result carries the running score; after the third
/// win the series is over and names its winner.
#[tokio::test(start_paused = true)]
async fn a_first_to_3_series_plays_until_someone_has_3_wins() {
    let shared = SharedVersus::default();
    let settings = battle(2).with_series(SeriesSettings::new(3, 1, 0));
    let (mut c, _) = room_of(&shared, settings, &["ann", "bob"]).await;
    let winners = [0usize, 1, 0, 0];
    let scores = [[1u8, 0], [1, 1], [2, 1], [3, 1]];
    for (game, (&w, score)) in winners.iter().zip(scores).enumerate() {
        if game == 0 {
            start(&mut c).await;
        } else {
            for c in c.iter_mut() {
                c.send(Request::Room(RoomCommand::Rematch));
            }
            start_seen(&mut c).await;
        }
        c[1 - w].report(top_out());
        for c in c.iter_mut() {
            let r = result(c).await;
            let s = r.series.expect("a series' result has its score");
            assert_eq!(s.wins, score, "game {}", game + 1);
            assert_eq!(s.games, game as u32 + 1);
            assert_eq!((s.first_to, s.win_by), (3, 1));
            let over = game == 3;
            assert_eq!(s.over, over, "game {}", game + 1);
            assert_eq!(s.winner, over.then_some(0));
        }
    }
    // The next match starts a new series.
    for c in c.iter_mut() {
        c.send(Request::Room(RoomCommand::Rematch));
    }
    start_seen(&mut c).await;
    c[0].report(top_out());
    let s = result(&mut c[1]).await.series.unwrap();
    assert_eq!((s.wins, s.over), (vec![0, 1], false));
}

/// A match of one game (today's rooms) has no score.
#[tokio::test(start_paused = true)]
async fn a_single_game_has_no_series_score() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    c[1].report(top_out());
    assert_eq!(result(&mut c[0]).await.series, None);
}

fn settings_of(c: &mut Client) -> Vec<minotty_protocol::RoomView> {
    c.drain()
        .into_iter()
        .filter_map(|r| match r {
            Response::Room(v) => Some(v),
            _ => None,
        })
        .collect()
}

/// The host changes the settings in the lobby: everyone sees them, readies reset; a guest's
/// change is refused.
#[tokio::test(start_paused = true)]
async fn the_host_changes_the_settings_and_others_cannot() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(4), &["ann", "bob"]).await;
    c[1].send(Request::Room(RoomCommand::Ready { ready: true }));
    c[0].wait(|r| matches!(r, Response::Room(v) if v.seats[1].ready).then_some(()))
        .await;
    c[1].drain();
    let league = battle(2).with_series(SeriesSettings::new(7, 1, 0));
    c[0].send(Request::Room(RoomCommand::Settings { settings: league }));
    for c in c.iter_mut() {
        let v = c
            .wait(|r| match r {
                Response::Room(v) if v.options == league => Some(v),
                _ => None,
            })
            .await;
        assert!(v.seats.iter().all(|s| !s.ready), "readies reset");
    }
    c[1].send(Request::Room(RoomCommand::Settings {
        settings: battle(8),
    }));
    let refused = c[1]
        .wait(|r| match r {
            Response::Notice { message } => Some(message),
            _ => None,
        })
        .await;
    assert!(refused.contains("Only the host"), "{refused}");
    // Two seats for two players: taken.
    c[0].send(Request::Room(RoomCommand::Settings {
        settings: battle(2).with_series(SeriesSettings::new(1, 1, 1)),
    }));
    let v = c[0].room().await;
    assert_eq!(v.options.series().stock(), 1);
    assert_eq!(v.options.max_players(), 2);
    tokio::task::yield_now().await;
    assert!(
        settings_of(&mut c[1])
            .iter()
            .all(|v| v.options.max_players() == 2)
    );
}

/// Attacker: a host flooding settings changes gets the burst, then refusals; the room keeps
/// answering the others at once (a ready is seen right after the flood).
#[tokio::test(start_paused = true)]
async fn a_host_flooding_settings_changes_is_bounded() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(8), &["ann", "bob"]).await;
    c[1].drain();
    let flood = 200;
    for i in 0..flood {
        let settings = battle(8).with_series(SeriesSettings::new(1 + (i % 7) as u8, 1, 0));
        c[0].send(Request::Room(RoomCommand::Settings { settings }));
    }
    c[1].send(Request::Room(RoomCommand::Ready { ready: true }));
    let v = c[1]
        .wait(|r| match r {
            Response::Room(v) if v.seats[1].ready => Some(v),
            _ => None,
        })
        .await;
    assert!(v.seats[1].ready);
    let changes = settings_of(&mut c[1]).len();
    tokio::task::yield_now().await;
    let seen = c[0].drain();
    let views = seen
        .iter()
        .filter(|r| matches!(r, Response::Room(_)))
        .count();
    // At most the burst changed the room (a session's own request bucket may refuse
    // earlier): every view the others were sent is bounded by it.
    assert!(
        views <= limits::SETTINGS_BURST as usize + 2,
        "{views} views for {flood} changes"
    );
    assert!(changes <= limits::SETTINGS_BURST as usize + 2, "{changes}");
}
