//! The climb: players join and leave mid-way, attacks follow the targeting rules (never the
//! attacker, never a newcomer in grace), bots fill it to its minimum and give way to people,
//! it is bounded in climbers and climbs, and only a verified replay's height is kept.

use std::time::Duration;

use minotty_bots::versus::{Level, VersusBot};
use minotty_engine::versus::climb::GRACE_MS;
use minotty_engine::{Game, GameConfig, Mode, Replay};
use minotty_protocol::{BoardSnapshot, ClimbView, MatchStart, Progress, Report, RoomCommand};
use minotty_ui::{Request, Response};

use super::{Client, temp_store};
use crate::services::versus::SharedVersus;
use crate::versus::bot::BotLimits;
use crate::versus::climb::{CLIMB_CODE, CLIMBERS_MAX, CLIMBS_MAX, MIN_CLIMBERS};
use crate::versus::{COUNTDOWN, REPLAY_GRACE};

fn no_bots() -> BotLimits {
    BotLimits {
        max_total: 0,
        ..BotLimits::default()
    }
}

impl Client {
    async fn climb_view(&mut self, mut want: impl FnMut(&ClimbView) -> bool) -> ClimbView {
        self.wait(|r| match r {
            Response::Climb(v) if want(&v) => Some(v),
            _ => None,
        })
        .await
    }

    async fn run_starts(&mut self) -> MatchStart {
        self.wait(|r| match r {
            Response::MatchStart(s) => Some(s),
            _ => None,
        })
        .await
    }

    /// Garbage received among what is queued now: (lines, from) each.
    fn garbage(&mut self) -> Vec<(u8, usize)> {
        self.drain()
            .into_iter()
            .filter_map(|r| match r {
                Response::Garbage { lines, from } => Some((lines, from)),
                _ => None,
            })
            .collect()
    }

    fn attack(&mut self, lines: u8) {
        self.report(vec![Report::Attack { lines }]);
    }
}

/// Past a run's countdown and grace.
async fn past_grace() {
    tokio::time::sleep(COUNTDOWN + Duration::from_millis(GRACE_MS + 500)).await;
}

async fn settle() {
    tokio::time::sleep(Duration::from_millis(300)).await;
}

#[tokio::test(start_paused = true)]
async fn climbers_join_and_leave_mid_way_and_attacks_follow_the_targeting_rules() {
    let shared = SharedVersus::with_bots(None, Some(7), no_bots());
    let mut ann = Client::new(&shared, "ann", Some(1));
    ann.send(Request::JoinClimb);
    let first = ann.climb_view(|_| true).await;
    assert_eq!((first.climbers, first.height, first.ended), (1, 0, None));
    let start = ann.run_starts().await;
    assert_eq!(start.you, Some(0));
    assert!(!start.ranked);
    // The first climb has the well-known code: `join UPWARD` finds it.
    let code = minotty_domain::RoomCode::parse(CLIMB_CODE).unwrap();
    assert!(shared.hub().room(&code).is_some());

    // bob joins by that code, mid-way.
    let mut bob = Client::new(&shared, "bob", Some(2));
    bob.send(Request::JoinRoom {
        code: "upward".into(),
        spectate: false,
    });
    assert_eq!(bob.run_starts().await.you, Some(1));
    ann.climb_view(|v| v.climbers == 2).await;
    past_grace().await;
    ann.drain();
    bob.drain();

    // ann's attack can only go to bob.
    ann.report(vec![Report::Progress(Progress {
        lines: 4,
        attack_sent: 2,
        ..Progress::default()
    })]);
    ann.attack(2);
    settle().await;
    assert_eq!(bob.garbage(), [(2, 0)]);
    let view = ann.climb_view(|v| v.height == 6).await;
    assert_eq!((view.floor, view.place, view.next_at), (1, 1, Some(50)));

    // cat joins: in grace, none of ann's attacks reach her; bob gets them all.
    let mut cat = Client::new(&shared, "cat", None);
    cat.send(Request::JoinClimb);
    assert_eq!(cat.run_starts().await.you, Some(2));
    for _ in 0..10 {
        ann.attack(1);
    }
    settle().await;
    assert_eq!(bob.garbage().len(), 10);
    assert!(cat.garbage().is_empty(), "a newcomer in grace is never hit");
    let grace = cat.climb_view(|v| v.grace_ms > 0).await;
    assert!(grace.grace_ms <= GRACE_MS + 1000);

    // bob leaves: with cat still in grace, ann's attack is lost.
    bob.send(Request::LeaveRoom);
    ann.climb_view(|v| v.climbers == 2).await;
    ann.attack(3);
    settle().await;
    assert!(cat.garbage().is_empty());
    // Out of grace, cat is the target.
    past_grace().await;
    cat.drain();
    ann.attack(3);
    settle().await;
    assert_eq!(cat.garbage(), [(3, 0)]);

    // ann tops out: her run's end, not kept (no database here); Enter climbs again.
    ann.report(vec![Report::Finished {
        won: false,
        progress: Progress {
            lines: 4,
            attack_sent: 2,
            time_ms: 30_000,
            ..Progress::default()
        },
    }]);
    let ended = ann.climb_view(|v| v.ended.is_some()).await;
    let run = ended.ended.expect("the run");
    assert_eq!((run.height, run.floor, run.stored), (6, 1, false));
    ann.send(Request::Room(RoomCommand::Rematch));
    assert_eq!(ann.run_starts().await.you, Some(0));
    let again = ann.climb_view(|v| v.ended.is_none()).await;
    assert_eq!(again.height, 0);

    // Everyone leaves: the climb closes and frees its code.
    drop(ann.client.take());
    drop(cat.client.take());
    settle().await;
    assert_eq!(shared.hub().climbs.open(), 0);
    assert!(shared.hub().room(&code).is_none());
}

#[tokio::test]
async fn bots_fill_the_climb_and_give_way_to_people() {
    let shared = SharedVersus::new(None, Some(3));
    let mut ann = Client::new(&shared, "ann", None);
    ann.send(Request::JoinClimb);
    ann.climb_view(|v| usize::from(v.climbers) == MIN_CLIMBERS)
        .await;
    assert_eq!(shared.hub().bots.active(), MIN_CLIMBERS - 1);
    let mut bob = Client::new(&shared, "bob", None);
    bob.send(Request::JoinClimb);
    bob.run_starts().await;
    // Still the minimum: one bot gave its place to bob.
    ann.climb_view(|v| usize::from(v.climbers) == MIN_CLIMBERS)
        .await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while shared.hub().bots.active() != MIN_CLIMBERS - 2 {
        assert!(tokio::time::Instant::now() < deadline, "a bot left");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Bots' boards reach the people.
    let boards = ann
        .wait(|r| match r {
            Response::Opponents(o) if o.iter().any(|o| o.name.starts_with("Bot")) => Some(o),
            _ => None,
        })
        .await;
    assert!(boards.len() <= 7);
    drop(ann.client.take());
    drop(bob.client.take());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while shared.hub().bots.active() != 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the bots end with the climb"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(start_paused = true)]
async fn climbs_are_bounded_in_climbers_and_in_number() {
    let shared = SharedVersus::with_bots(None, Some(5), no_bots());
    let mut all = Vec::new();
    for i in 0..CLIMBERS_MAX * CLIMBS_MAX {
        let mut c = Client::new(&shared, &format!("p{i}"), None);
        c.send(Request::JoinClimb);
        let start = c.run_starts().await;
        assert_eq!(start.you, Some(i % CLIMBERS_MAX), "climber {i}");
        // Only the first climb has the well-known code.
        all.push(c);
    }
    assert_eq!(shared.hub().climbs.open(), CLIMBS_MAX);
    let mut late = Client::new(&shared, "late", None);
    late.send(Request::JoinClimb);
    let refused = late.failed().await;
    assert!(refused.contains("Every climb is full"), "{refused}");
    // Each climber sees at most seven others' boards.
    settle().await;
    let boards = all[0]
        .drain()
        .into_iter()
        .filter_map(|r| match r {
            Response::Opponents(o) => Some(o.len()),
            _ => None,
        })
        .max();
    assert_eq!(boards, Some(7));
}

/// A real game of `seed` played by a bot for `pieces` pieces (lines cleared, attack sent).
fn climbed(seed: u32, pieces: u32) -> Replay {
    let config = GameConfig {
        mode: Mode::custom(0, true, None),
        ..GameConfig::default()
    };
    let mut game = Game::new(config, seed);
    game.update(0, None);
    let mut bot = VersusBot::new(Level::new(7).expect("level"), 1);
    while !game.is_over() && game.stats().pieces < pieces && game.now() < 600_000 {
        let b = bot.poll(&game);
        let d = game.next_deadline();
        let Some(t) = [b, d].into_iter().flatten().min() else {
            break;
        };
        if d == Some(t) && b.is_none_or(|b| b > t) {
            game.update(t, None);
        } else if let Some(input) = bot.act(&game, t) {
            game.update(t, Some(input));
        } else {
            game.update(t, None);
        }
    }
    assert!(game.stats().lines > 0, "{:?}", game.stats());
    game.replay()
}

#[tokio::test]
async fn only_a_verified_replays_height_is_kept_and_claims_stay_bounded() {
    let (_dir, store) = temp_store().await;
    let shared = SharedVersus::with_bots(Some(store.clone()), Some(11), no_bots());
    let mut ann = Client::new(&shared, "ann", Some(1));
    store
        .register(
            &minotty_domain::PlayerName::parse("ann").unwrap(),
            &minotty_store::NewKey {
                fingerprint: minotty_domain::KeyFingerprint::parse(&format!(
                    "SHA256:{:0>43}",
                    "annkey"
                ))
                .unwrap(),
                algorithm: "ssh-ed25519".into(),
            },
            0,
        )
        .await
        .expect("registers");
    let mut eve = Client::new(&shared, "eve", None);
    ann.send(Request::JoinClimb);
    let start = ann.run_starts().await;
    eve.send(Request::JoinClimb);
    eve.run_starts().await;
    // eve, hostile: a board of 10,000 rows and a claim of every line there is.
    eve.report(vec![
        Report::Board(BoardSnapshot {
            rows: vec![[9; 10]; 10_000],
        }),
        Report::Progress(Progress {
            lines: u32::MAX,
            attack_sent: u32::MAX,
            ..Progress::default()
        }),
    ]);
    let seen = ann
        .wait(|r| match r {
            Response::Opponents(o) if o.iter().any(|o| o.progress.lines == u32::MAX) => Some(o),
            _ => None,
        })
        .await;
    assert!(seen.iter().all(|o| o.board.rows.len() <= 20));
    let eve_view = eve.climb_view(|v| v.height > 0).await;
    assert_eq!(eve_view.height, 100_000, "a claim is capped");
    // ann's run: her reports claim 500 lines, her replay (a real game of her run's seed)
    // has fewer; the board keeps what the replay reached.
    let replay = climbed(start.seed, 60);
    let verified = replay.verify().expect("verifies").stats;
    let height = verified.lines + verified.sent;
    ann.report(vec![
        Report::Finished {
            won: false,
            progress: Progress {
                lines: 500,
                ..Progress::default()
            },
        },
        Report::Replay(Box::new(replay)),
    ]);
    let kept = ann
        .climb_view(|v| v.ended.as_ref().is_some_and(|r| r.stored))
        .await;
    assert_eq!(kept.ended.expect("ended").height, height);
    let now = i64::MAX / 2;
    let board = store
        .climb_board(
            minotty_domain::Period::AllTime,
            now,
            minotty_store::Page::top(10),
        )
        .await
        .unwrap();
    assert_eq!(board.len(), 1);
    assert_eq!((board[0].name.as_str(), board[0].height), ("ann", height));
    // eve is a guest: her run ends, nothing is kept, whatever she claims.
    eve.report(vec![Report::Finished {
        won: false,
        progress: Progress::default(),
    }]);
    let over = eve.climb_view(|v| v.ended.is_some()).await;
    assert!(!over.ended.expect("ended").stored);
    tokio::time::sleep(REPLAY_GRACE / 10).await;
    assert_eq!(
        store
            .climb_board_size(minotty_domain::Period::AllTime, now)
            .await
            .unwrap(),
        1
    );
}

#[tokio::test(start_paused = true)]
async fn fatigue_sends_a_long_run_garbage_of_its_own() {
    use minotty_engine::versus::climb::{FATIGUE_AFTER_MS, FATIGUE_EVERY_MS, fatigue_lines};
    let shared = SharedVersus::with_bots(None, Some(9), no_bots());
    let mut ann = Client::new(&shared, "ann", None);
    ann.send(Request::JoinClimb);
    ann.run_starts().await;
    // Just before the eighth minute of the run: nothing yet.
    tokio::time::sleep(COUNTDOWN + Duration::from_millis(FATIGUE_AFTER_MS - 1_000)).await;
    assert!(ann.garbage().is_empty());
    // Three batches later: fatigue's own garbage (from ann's own slot), as the table says.
    tokio::time::sleep(Duration::from_millis(1_000 + 2 * FATIGUE_EVERY_MS + 500)).await;
    let all = ann.drain();
    let got: Vec<(u8, usize)> = all
        .iter()
        .filter_map(|r| match r {
            Response::Garbage { lines, from } => Some((*lines, *from)),
            _ => None,
        })
        .collect();
    assert!(got.iter().all(|&(_, from)| from == 0), "{got:?}");
    let lines: u32 = got.iter().map(|&(l, _)| u32::from(l)).sum();
    assert_eq!(
        lines,
        fatigue_lines(FATIGUE_AFTER_MS + 2 * FATIGUE_EVERY_MS)
    );
    assert!(
        all.iter()
            .any(|r| matches!(r, Response::Climb(v) if v.fatigue)),
        "the view says fatigue"
    );
}
