//! The ranked quick-match queue: one task pairs registered players for 1v1 battles by rating.
//! Each player's acceptable range starts at [`BASE_RANGE`] and widens by [`WIDEN_PER_SEC`]
//! every second of waiting (up to [`MAX_RANGE`]); two players are paired when their ratings
//! are within the wider of their two ranges. Waiting players get `Queued` once a second.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use minotty_engine::rating::Rating;
use minotty_engine::versus::MatchKind;
use minotty_ui::online::{Response, RoomLimit, RoomOptions};
use tokio::sync::mpsc;
use tokio::time::{Instant, MissedTickBehavior, interval};

use super::{Hub, Member, MemberId};

/// The rating range right after queueing.
pub const BASE_RANGE: i32 = 100;
/// How much the range widens per second of waiting.
pub const WIDEN_PER_SEC: i32 = 10;
/// The widest range.
pub const MAX_RANGE: i32 = 1000;

/// What sessions tell the queue.
#[derive(Debug)]
pub enum QueueMsg {
    Join {
        member: Member,
    },
    Cancel {
        id: MemberId,
    },
    /// The rating of a member who joined was read (sent by the queue to itself).
    Rated {
        member: Member,
        rating: Rating,
    },
}

#[derive(Debug)]
struct Waiting {
    member: Member,
    rating: Rating,
    since: Instant,
}

/// The range of a player who has waited since `since`.
pub fn range(since: Instant, now: Instant) -> i32 {
    let secs = i32::try_from(now.saturating_duration_since(since).as_secs()).unwrap_or(i32::MAX);
    BASE_RANGE
        .saturating_add(secs.saturating_mul(WIDEN_PER_SEC))
        .min(MAX_RANGE)
}

pub(super) fn spawn(hub: Arc<Hub>) -> mpsc::UnboundedSender<QueueMsg> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(run(hub, tx.clone(), rx));
    tx
}

async fn run(
    hub: Arc<Hub>,
    me: mpsc::UnboundedSender<QueueMsg>,
    mut rx: mpsc::UnboundedReceiver<QueueMsg>,
) {
    let mut pending: HashSet<MemberId> = HashSet::new();
    let mut waiting: Vec<Waiting> = Vec::new();
    let mut tick = interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            msg = rx.recv() => match msg {
                Some(QueueMsg::Join { member }) => {
                    let Some(account) = member.account.clone() else {
                        continue;
                    };
                    pending.insert(member.id);
                    let hub = Arc::clone(&hub);
                    let me = me.clone();
                    tokio::spawn(async move {
                        let rating = hub.rating_of(account.id).await;
                        let _ = me.send(QueueMsg::Rated { member, rating });
                    });
                }
                Some(QueueMsg::Cancel { id }) => {
                    pending.remove(&id);
                    waiting.retain(|w| w.member.id != id);
                }
                Some(QueueMsg::Rated { member, rating }) => {
                    if !pending.remove(&member.id) {
                        continue;
                    }
                    // One place in the queue per account (the newest session keeps it).
                    let account = member.account.as_ref().map(|a| a.id);
                    waiting.retain(|w| w.member.account.as_ref().map(|a| a.id) != account);
                    let now = Instant::now();
                    member.send(Response::Queued {
                        rating: rating.rating.round() as i32,
                        range: range(now, now),
                    });
                    waiting.push(Waiting { member, rating, since: now });
                    pair(&hub, &mut waiting, now);
                }
                None => break,
            },
            _ = tick.tick() => {
                let now = Instant::now();
                waiting.retain(|w| !w.member.tx.is_closed());
                pair(&hub, &mut waiting, now);
                for w in &waiting {
                    w.member.send(Response::Queued {
                        rating: w.rating.rating.round() as i32,
                        range: range(w.since, now),
                    });
                }
            }
        }
    }
}

/// Pairs whoever can be paired, longest waiting first, and starts a ranked room for each pair.
fn pair(hub: &Arc<Hub>, waiting: &mut Vec<Waiting>, now: Instant) {
    let mut i = 0;
    while i < waiting.len() {
        let a = &waiting[i];
        let found = (i + 1..waiting.len()).find(|&j| {
            let b = &waiting[j];
            let gap = (a.rating.rating - b.rating.rating).abs();
            let allowed = range(a.since, now).max(range(b.since, now));
            gap <= f64::from(allowed)
                && a.member.account.as_ref().map(|x| x.id)
                    != b.member.account.as_ref().map(|x| x.id)
        });
        match found {
            Some(j) => {
                let b = waiting.remove(j);
                let a = waiting.remove(i);
                let options = RoomOptions {
                    kind: MatchKind::Battle,
                    max_players: 2,
                    limit: RoomLimit::None,
                };
                let told = [a.member.clone(), b.member.clone()];
                let players = vec![(a.member, Some(a.rating)), (b.member, Some(b.rating))];
                if hub.create_room(options, true, players).is_none() {
                    tracing::error!("no free room code for a ranked match");
                    for m in told {
                        m.send(Response::RoomFailed {
                            message: "The server has no free room: try again.".into(),
                        });
                    }
                }
            }
            None => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_widens_with_waiting() {
        let t = Instant::now();
        assert_eq!(range(t, t), BASE_RANGE);
        assert_eq!(range(t, t + Duration::from_secs(10)), BASE_RANGE + 100);
        assert_eq!(range(t, t + Duration::from_secs(10_000)), MAX_RANGE);
    }
}
