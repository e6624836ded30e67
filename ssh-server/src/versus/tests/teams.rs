//! Rooms of teams, driven through `VersusClient`s: a 2v2 of two people against two bots
//! whose attacks reach only the other team and whose results are per team; picking and
//! moving teams (the host moves anyone, a member only themselves, bounded); a room with
//! everyone on one team does not start.

use minotty_protocol::{MatchStart, Progress, Report, RoomCommand, RoomView};
use minotty_ui::{Request, Response};

use super::{Client, battle, room_of};
use crate::services::versus::SharedVersus;
use crate::versus::bot::BotLimits;
use crate::versus::limits;

fn team(c: &mut Client, seat: usize, team: u8) {
    c.send(Request::Room(RoomCommand::Team { seat, team }));
}

/// The next room view for which `f` holds.
async fn view_where(c: &mut Client, f: impl Fn(&RoomView) -> bool) -> RoomView {
    loop {
        let v = c.room().await;
        if f(&v) {
            return v;
        }
    }
}

fn teams_of(v: &RoomView) -> Vec<Option<u8>> {
    v.seats.iter().map(|s| s.team).collect()
}

/// ann and bob (team A) against two bots (team B): the seats' teams are shown, every garbage
/// a person receives comes from a bot, what each team sent is what the other received, and
/// the results give both players of a team its place.
#[tokio::test]
async fn a_2v2_sends_attacks_only_to_the_other_team_and_places_per_team() {
    let shared = SharedVersus::with_bots(None, Some(11), BotLimits::default());
    let (mut c, _) = room_of(&shared, battle(4).with_teams(2), &["ann", "bob"]).await;
    // bob joined the smallest team (B); he moves to A, then the bots fill B.
    let v = view_where(&mut c[0], |v| v.seats.len() == 2).await;
    assert_eq!(teams_of(&v), [Some(0), Some(1)]);
    team(&mut c[1], 1, 0);
    view_where(&mut c[0], |v| teams_of(v) == [Some(0), Some(0)]).await;
    c[0].send(Request::Room(RoomCommand::AddBot { level: 1 }));
    c[0].send(Request::Room(RoomCommand::AddBot { level: 1 }));
    let v = view_where(&mut c[0], |v| v.seats.len() == 4).await;
    assert_eq!(teams_of(&v), [Some(0), Some(0), Some(1), Some(1)]);
    c[1].send(Request::Room(RoomCommand::Ready { ready: true }));
    view_where(&mut c[0], |v| v.seats[1].ready).await;
    c[0].send(Request::Room(RoomCommand::Start));
    for c in c.iter_mut() {
        let start: MatchStart = c
            .wait(|r| match r {
                Response::MatchStart(s) => Some(s),
                _ => None,
            })
            .await;
        assert_eq!(start.teams, [0, 0, 1, 1]);
        assert!(!start.ranked, "a match of teams is never ranked");
    }
    // Each person attacks six times (one line each), then tops out.
    for c in c.iter_mut() {
        let attacks = (0..6).map(|_| Report::Attack { lines: 1 }).collect();
        c.report(attacks);
    }
    for c in c.iter_mut() {
        c.report(vec![Report::Finished {
            won: false,
            progress: Progress::default(),
        }]);
    }
    for (me, c) in c.iter_mut().enumerate() {
        let mut from_teammate = Vec::new();
        let res = c
            .wait(|r| match r {
                Response::Garbage { from, .. } => {
                    if from < 2 {
                        from_teammate.push(from);
                    }
                    None
                }
                Response::MatchOver(m) => Some(m),
                _ => None,
            })
            .await;
        assert_eq!(
            from_teammate,
            [] as [usize; 0],
            "seat {me} got a teammate's garbage"
        );
        assert_eq!(res.teams, [0, 0, 1, 1]);
        assert!(!res.ranked);
        let place = |seat: usize| res.rows.iter().find(|r| r.seat == seat).unwrap().place;
        assert_eq!(place(0), place(1), "a team shares its place");
        assert_eq!(place(2), place(3), "a team shares its place");
        assert_ne!(place(0), place(2));
        assert_eq!(place(0).min(place(2)), 1);
        let sum = |seats: [usize; 2], f: fn(&minotty_protocol::ResultRow) -> u32| -> u32 {
            res.rows
                .iter()
                .filter(|r| seats.contains(&r.seat))
                .map(f)
                .sum()
        };
        let sent = |r: &minotty_protocol::ResultRow| r.attack_sent;
        let received = |r: &minotty_protocol::ResultRow| r.garbage_received;
        assert_eq!(
            sum([0, 1], sent),
            sum([2, 3], received),
            "A's attack went to B"
        );
        assert_eq!(
            sum([2, 3], sent),
            sum([0, 1], received),
            "B's attack went to A"
        );
        assert!(sum([0, 1], sent) > 0, "{:?}", res.rows);
    }
}

/// A member moves only themselves; the host moves anyone; a team past the last is the last;
/// a free-for-all room takes no team changes.
#[tokio::test(start_paused = true)]
async fn the_host_moves_anyone_a_member_only_themselves() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(4).with_teams(3), &["ann", "bob", "cy"]).await;
    view_where(&mut c[0], |v| teams_of(v) == [Some(0), Some(1), Some(2)]).await;
    team(&mut c[1], 2, 0);
    let refused = c[1]
        .wait(|r| match r {
            Response::Notice { message } => Some(message),
            _ => None,
        })
        .await;
    assert!(refused.contains("Only the host"), "{refused}");
    team(&mut c[0], 2, 0);
    view_where(&mut c[1], |v| teams_of(v) == [Some(0), Some(1), Some(0)]).await;
    team(&mut c[2], 2, 9);
    view_where(&mut c[1], |v| teams_of(v) == [Some(0), Some(1), Some(2)]).await;
    team(&mut c[0], 1, 0);
    view_where(&mut c[2], |v| teams_of(v) == [Some(0), Some(0), Some(2)]).await;
    // A seat that does not exist moves nobody.
    team(&mut c[0], 7, 1);
    let refused = c[0]
        .wait(|r| match r {
            Response::Notice { message } => Some(message),
            _ => None,
        })
        .await;
    assert!(refused.contains("no such seat"), "{refused}");

    let (mut ffa, _) = room_of(&shared, battle(2), &["dee", "eve"]).await;
    let v = ffa[0].room().await;
    assert_eq!(teams_of(&v), [None, None]);
    team(&mut ffa[1], 1, 1);
    let refused = ffa[1]
        .wait(|r| match r {
            Response::Notice { message } => Some(message),
            _ => None,
        })
        .await;
    assert!(refused.contains("free-for-all"), "{refused}");
}

/// Everyone on one team: the host's start is refused with a notice, no match starts.
#[tokio::test(start_paused = true)]
async fn a_room_with_one_team_does_not_start() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2).with_teams(2), &["ann", "bob"]).await;
    team(&mut c[1], 1, 0);
    view_where(&mut c[0], |v| teams_of(v) == [Some(0), Some(0)]).await;
    c[0].send(Request::Room(RoomCommand::Start));
    let told = c[0]
        .wait(|r| match r {
            Response::Notice { message } => Some(message),
            Response::MatchStart(_) => panic!("a match of one team started"),
            _ => None,
        })
        .await;
    assert!(told.contains("two teams"), "{told}");
    // Back on two teams, it starts.
    team(&mut c[1], 1, 1);
    c[0].send(Request::Room(RoomCommand::Start));
    c[0].wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
        .await;
}

/// A member sending team changes as fast as they can moves at most the burst on the room's
/// clock; everyone else is sent at most that many views (each change one), and the member
/// is told to wait.
#[tokio::test(start_paused = true)]
async fn a_member_flooding_team_changes_is_bounded() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(4).with_teams(2), &["ann", "bob"]).await;
    view_where(&mut c[0], |v| v.seats.len() == 2).await;
    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    c[0].drain();
    for i in 0..1000u32 {
        team(&mut c[1], 1, (i % 2) as u8);
    }
    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    let views = c[0]
        .drain()
        .into_iter()
        .filter(|r| matches!(r, Response::Room(_)))
        .count();
    assert!(views >= 1, "some changes are taken");
    assert!(
        views <= limits::TEAM_BURST as usize,
        "{views} views for a flood of team changes"
    );
    let told = c[1].drain().into_iter().any(|r| {
        matches!(r, Response::Notice { ref message } if message.contains("wait") || message.contains("slow"))
    });
    assert!(told, "the flooder is told to wait");
}

/// A first-to-2 series of a 2v2 counts each team's wins: team B, then team A, then A again
/// wins it (every player of a team sees the same score).
#[tokio::test(start_paused = true)]
async fn a_series_of_teams_counts_each_teams_wins() {
    use minotty_engine::versus::SeriesSettings;
    let shared = SharedVersus::default();
    let settings = battle(4)
        .with_teams(2)
        .with_series(SeriesSettings::new(2, 1, 0));
    let (mut c, _) = room_of(&shared, settings, &["ann", "bob", "cy", "dee"]).await;
    // Dealt: ann and cy on A, bob and dee on B.
    view_where(&mut c[0], |v| {
        teams_of(v) == [Some(0), Some(1), Some(0), Some(1)]
    })
    .await;
    let top_out = || {
        vec![Report::Finished {
            won: false,
            progress: Progress::default(),
        }]
    };
    // The seats of the losing team each game, and the score after it (A, B).
    let games: [([usize; 2], [u8; 2]); 3] = [([0, 2], [0, 1]), ([1, 3], [1, 1]), ([1, 3], [2, 1])];
    for (g, (losers, score)) in games.into_iter().enumerate() {
        if g == 0 {
            super::start(&mut c).await;
        } else {
            for c in c.iter_mut() {
                c.send(Request::Room(RoomCommand::Rematch));
            }
            super::start_seen(&mut c).await;
        }
        for l in losers {
            c[l].report(top_out());
        }
        for c in c.iter_mut() {
            let r = super::result(c).await;
            assert_eq!(r.teams, [0, 1, 0, 1]);
            let s = r.series.expect("a series");
            assert_eq!(s.wins, score, "game {}", g + 1);
            assert_eq!(s.over, g == 2);
            assert_eq!(s.winner, (g == 2).then_some(0), "team A wins the series");
        }
    }
}
