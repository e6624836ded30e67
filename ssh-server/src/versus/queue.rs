//! The ranked quick-match queue: one task pairs registered players for 1v1 battles by rating,
//! each a series as long as the lower rating's band plays (`minotty_domain::ranked`).
//! Each player's acceptable range starts at [`BASE_RANGE`] and widens by [`WIDEN_PER_SEC`]
//! every second of waiting (up to [`MAX_RANGE`]); two players are paired when their ratings
//! are within the wider of their two ranges. Waiting players get `Queued` once a second.
//!
//! Two accounts from one client address (IPv4 address, IPv6 /64) are never paired for a ranked
//! match unless the operator allows it (`--ranked-same-address`): one person with two accounts
//! must not feed one of them wins. Players queued through another instance of a cluster come
//! without their address (it is not on the wire): `None`, unknown, which blocks no pairing.
//!
//! A player still alone after [`super::bot::BotLimits::offer_after`] (20 s by default) is
//! offered a match against a bot: unranked, at a level that follows their rating
//! ([`bot_level_for`]). Accepting takes them out of the queue into that match; declining keeps
//! them waiting, and the offer comes again after another such wait.
//!
//! A player who has waited [`SAME_ADDRESS_HINT_AFTER`] while everyone else waiting connects
//! from their own address is told so (`Queued::same_address`): otherwise nothing says why
//! nobody comes. It names nobody.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use minotty_bots::versus::Level;
use minotty_engine::rating::Rating;
use minotty_engine::versus::{MatchKind, SeriesSettings};
use minotty_protocol::{RoomLimit, RoomSettings};
use minotty_ui::Response;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::{Instant, MissedTickBehavior, interval};
use tokio_util::sync::CancellationToken;

use super::{Hub, Member, MemberId, RankedClaim};
use minotty_domain::ranked::pair_first_to;
use minotty_domain::{AddressKey, ClientAddr};

/// The rating range right after queueing.
pub const BASE_RANGE: i32 = 100;
/// How much the range widens per second of waiting.
pub const WIDEN_PER_SEC: i32 = 10;
/// The widest range.
pub const MAX_RANGE: i32 = 1000;
/// After this long waiting, a player whom only the one-address rule keeps from a match (every
/// other player waiting connects from their address) is told so with each `Queued`.
pub const SAME_ADDRESS_HINT_AFTER: Duration = Duration::from_secs(10);

/// What sessions tell the queue.
#[derive(Debug)]
pub enum QueueMsg {
    /// `claim`: the account's claim on ranked play, held by the queue until the member is
    /// paired (then by the match's room) or leaves. The address is unknown (players of
    /// other instances): it blocks no pairing.
    Join {
        member: Member,
        claim: RankedClaim,
    },
    /// The same for a session of this instance, with its client's address.
    JoinFrom {
        member: Member,
        claim: RankedClaim,
        address: Option<ClientAddr>,
    },
    Cancel {
        id: MemberId,
    },
    /// The rating of a member who joined was read (the queue's own rating task's answer).
    Rated {
        member: Member,
        rating: Rating,
        address: Option<AddressKey>,
    },
    /// The player takes the bot match they were offered.
    AcceptBot {
        member: Member,
    },
    /// The player keeps waiting for a person.
    DeclineBot {
        id: MemberId,
    },
    /// This instance drains (`cluster/drain.rs`): its own players stop waiting, told to
    /// reconnect (players of other instances are handed to the next leader by the drain).
    Drain,
    /// Tests: the queue panics while handling this.
    #[cfg(test)]
    Panic,
}

#[derive(Debug)]
struct Waiting {
    member: Member,
    rating: Rating,
    since: Instant,
    claim: RankedClaim,
    /// The client's key ([`ClientAddr::key`]); `None`: unknown.
    address: Option<AddressKey>,
    /// A bot match is offered now (and may be accepted).
    offered: bool,
    /// When to offer one (again).
    offer_at: Instant,
}

/// The bot level offered to a player of `rating`: gentle players get a steady bot, strong ones
/// a fast one (a new player, at 1500, gets level 3).
pub fn bot_level_for(rating: f64) -> Level {
    let n = match rating {
        r if r < 1300.0 => 2,
        r if r < 1600.0 => 3,
        r if r < 1800.0 => 4,
        r if r < 2000.0 => 5,
        r if r < 2200.0 => 6,
        _ => 7,
    };
    Level::new(n).unwrap_or(Level::MIN)
}

/// The range of a player who has waited since `since`.
pub fn range(since: Instant, now: Instant) -> i32 {
    let secs = i32::try_from(now.saturating_duration_since(since).as_secs()).unwrap_or(i32::MAX);
    BASE_RANGE
        .saturating_add(secs.saturating_mul(WIDEN_PER_SEC))
        .min(MAX_RANGE)
}

/// The queue's task (the hub's, see `queue_inbox.rs`), until `stop`; supervised: a panic
/// while handling a message or a tick is caught and logged, and the queue goes on with the
/// players it had (nobody notices). The ratings it reads are its own tasks, ended with it.
pub(super) async fn run(hub: Arc<Hub>, mut rx: mpsc::Receiver<QueueMsg>, stop: CancellationToken) {
    let mut queue = Queue {
        hub,
        ratings: JoinSet::new(),
        pending: HashMap::new(),
        waiting: Vec::new(),
    };
    let mut tick = interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        let step = tokio::select! {
            () = stop.cancelled() => break,
            msg = rx.recv() => match msg {
                Some(msg) => catch_unwind(AssertUnwindSafe(|| queue.handle(msg))),
                None => break,
            },
            Some(read) = queue.ratings.join_next(), if !queue.ratings.is_empty() => match read {
                Ok(Some(msg)) => catch_unwind(AssertUnwindSafe(|| queue.handle(msg))),
                // The member stopped waiting, or the read panicked (its claim is released
                // when the member's `Cancel` comes, or the member's session ends).
                Ok(None) | Err(_) => Ok(()),
            },
            _ = tick.tick() => catch_unwind(AssertUnwindSafe(|| queue.tick(Instant::now()))),
        };
        if step.is_err() {
            tracing::error!(
                waiting = queue.waiting.len(),
                "the matchmaking queue panicked: it goes on with the players it had"
            );
        }
    }
}

struct Queue {
    hub: Arc<Hub>,
    /// Ratings being read, one task each; each answers with the member's `Rated`.
    ratings: JoinSet<Option<QueueMsg>>,
    /// Joined, rating being read.
    pending: HashMap<MemberId, RankedClaim>,
    waiting: Vec<Waiting>,
}

impl Queue {
    fn handle(&mut self, msg: QueueMsg) {
        match msg {
            QueueMsg::Join { member, claim } => self.join(member, claim, None),
            QueueMsg::JoinFrom {
                member,
                claim,
                address,
            } => self.join(member, claim, address),
            QueueMsg::Cancel { id } => {
                if let Some(claim) = self.pending.remove(&id) {
                    self.hub.release_ranked(claim);
                }
                self.remove_waiting(|w| w.member.id == id);
            }
            QueueMsg::Rated {
                member,
                rating,
                address,
            } => {
                let Some(claim) = self.pending.remove(&member.id) else {
                    return;
                };
                if self.hub.is_draining() && self.is_local(member.id) {
                    self.hub.release_ranked(claim);
                    member.send(Response::RoomFailed {
                        message: super::RECONNECT.to_owned(),
                    });
                    return;
                }
                // One place in the queue per session.
                self.remove_waiting(|w| w.member.id == member.id);
                let now = Instant::now();
                member.send(Response::Queued {
                    rating: rating.rating.round() as i32,
                    range: range(now, now),
                    same_address: false,
                });
                self.waiting.push(Waiting {
                    member,
                    rating,
                    since: now,
                    claim,
                    address,
                    offered: false,
                    offer_at: now + self.hub.bots.limits.offer_after,
                });
                pair(&self.hub, &mut self.waiting, now);
            }
            QueueMsg::AcceptBot { member } => self.accept_bot(member),
            QueueMsg::Drain => self.drain(),
            QueueMsg::DeclineBot { id } => {
                let again = Instant::now() + self.hub.bots.limits.offer_after;
                if let Some(w) = self.waiting.iter_mut().find(|w| w.member.id == id) {
                    w.offered = false;
                    w.offer_at = again;
                }
            }
            #[cfg(test)]
            QueueMsg::Panic => panic!("a test asked the queue to panic"),
        }
    }

    /// A member joins: their rating is read, then they wait (`Rated`).
    fn join(&mut self, member: Member, claim: RankedClaim, address: Option<ClientAddr>) {
        let Some(account) = member.account.clone() else {
            self.hub.release_ranked(claim);
            return;
        };
        let address = address.map(ClientAddr::key);
        if let Some(old) = self.pending.insert(member.id, claim)
            && old != claim
        {
            self.hub.release_ranked(old);
        }
        let hub = Arc::clone(&self.hub);
        self.ratings.spawn(async move {
            // Never a made-up rating: the queue waits while the store cannot be read.
            // (`None`: the member stopped waiting, and their `Cancel` went to the queue.)
            let rating = hub.rating_for_queue(&member, account.id, claim).await?;
            Some(QueueMsg::Rated {
                member,
                rating,
                address,
            })
        });
    }

    fn tick(&mut self, now: Instant) {
        self.remove_waiting(|w| w.member.tx.is_closed());
        pair(&self.hub, &mut self.waiting, now);
        let bots = self.hub.bots.limits;
        for w in &mut self.waiting {
            if !w.offered && bots.max_total > 0 && now >= w.offer_at {
                w.offered = true;
                w.member.send(Response::BotOffer {
                    level: bot_level_for(w.rating.rating).number(),
                });
            }
        }
        let same_address = self.hub.bots.limits.ranked_same_address;
        for w in &self.waiting {
            w.member.send(Response::Queued {
                rating: w.rating.rating.round() as i32,
                range: range(w.since, now),
                same_address: now.saturating_duration_since(w.since) >= SAME_ADDRESS_HINT_AFTER
                    && only_own_address_waits(w, &self.waiting, same_address),
            });
        }
    }

    /// A player takes the bot match offered: out of the queue and into the match, or (no bot
    /// free) still waiting, told why.
    fn accept_bot(&mut self, member: Member) {
        let Some(i) = self
            .waiting
            .iter()
            .position(|w| w.member.id == member.id && w.offered)
        else {
            return;
        };
        let level = bot_level_for(self.waiting[i].rating.rating);
        match self.hub.create_bot_match(member.clone(), level) {
            Ok(room) => {
                let w = self.waiting.remove(i);
                self.hub.release_ranked(w.claim);
                tracing::info!(room = %room.code, level = level.number(), "a bot match from the queue");
            }
            Err(message) => {
                member.send(Response::Notice { message });
            }
        }
    }

    /// Whether `id` is a session of this instance (not a player of another one, seated here).
    fn is_local(&self, id: MemberId) -> bool {
        !self.hub.is_remote_member(id)
    }

    /// The instance drains: its own players leave the queue, told to reconnect elsewhere.
    fn drain(&mut self) {
        let local: Vec<MemberId> = self
            .waiting
            .iter()
            .map(|w| w.member.id)
            .filter(|id| self.is_local(*id))
            .collect();
        for w in self.waiting.iter().filter(|w| local.contains(&w.member.id)) {
            w.member.send(Response::RoomFailed {
                message: super::RECONNECT.to_owned(),
            });
        }
        self.remove_waiting(|w| local.contains(&w.member.id));
        if !local.is_empty() {
            tracing::info!(players = local.len(), "draining: players out of the queue");
        }
    }

    /// Takes the players `gone` out of the queue, releasing their claims.
    fn remove_waiting(&mut self, gone: impl Fn(&Waiting) -> bool) {
        let hub = &self.hub;
        self.waiting.retain(|w| {
            let keep = !gone(w);
            if !keep {
                hub.release_ranked(w.claim);
            }
            keep
        });
    }
}

/// Whether `a` and `b` may meet in a ranked match: different accounts, and different
/// addresses unless `same_address` allows them (an unknown address blocks nothing).
fn may_meet(a: &Waiting, b: &Waiting, same_address: bool) -> bool {
    let account = |w: &Waiting| w.member.account.as_ref().map(|x| x.id);
    account(a) != account(b) && addresses_may_meet(a.address, b.address, same_address)
}

/// Whether everyone waiting but `w` (at least one) is kept from `w` by the one-address rule
/// (and so nobody there can ever be `w`'s opponent).
fn only_own_address_waits(w: &Waiting, waiting: &[Waiting], same_address: bool) -> bool {
    let mut others = waiting
        .iter()
        .filter(|o| o.member.id != w.member.id)
        .peekable();
    others.peek().is_some()
        && others.all(|o| !addresses_may_meet(w.address, o.address, same_address))
}

/// Whether players at these address keys may meet: not at one known address, unless
/// `same_address`; an unknown address (`None`, a player queued through another instance)
/// blocks nothing.
fn addresses_may_meet(a: Option<AddressKey>, b: Option<AddressKey>, same_address: bool) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => same_address || x != y,
        _ => true,
    }
}

/// Pairs whoever can be paired, longest waiting first, and starts a ranked room for each pair.
fn pair(hub: &Arc<Hub>, waiting: &mut Vec<Waiting>, now: Instant) {
    let same_address = hub.bots.limits.ranked_same_address;
    let mut i = 0;
    while i < waiting.len() {
        let a = &waiting[i];
        let found = (i + 1..waiting.len()).find(|&j| {
            let b = &waiting[j];
            let gap = (a.rating.rating - b.rating.rating).abs();
            let allowed = range(a.since, now).max(range(b.since, now));
            gap <= f64::from(allowed) && may_meet(a, b, same_address)
        });
        match found {
            Some(j) => {
                let b = waiting.remove(j);
                let a = waiting.remove(i);
                // A series, as long as the lower rating's band plays (`domain::ranked`).
                let first_to = pair_first_to(a.rating.rating, b.rating.rating);
                let options = RoomSettings::new(MatchKind::Battle, 2, RoomLimit::None)
                    .with_series(SeriesSettings::new(first_to, 1, 0));
                let told = [a.member.clone(), b.member.clone()];
                let claims = vec![a.claim, b.claim];
                let players = vec![(a.member, Some(a.rating)), (b.member, Some(b.rating))];
                if hub.create_room(options, true, players, claims).is_none() {
                    tracing::error!("no free room code for a ranked match");
                    hub.release_ranked(a.claim);
                    hub.release_ranked(b.claim);
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

    #[test]
    fn one_known_address_blocks_and_an_unknown_one_does_not() {
        let home = Some(ClientAddr::new("192.0.2.1".parse().expect("ip")).key());
        let away = Some(ClientAddr::new("::ffff:192.0.2.2".parse().expect("ip")).key());
        assert!(!addresses_may_meet(home, home, false));
        assert!(
            addresses_may_meet(home, home, true),
            "the operator allows it"
        );
        assert!(addresses_may_meet(home, away, false));
        // An unknown address (a join from an instance that sends none): never blocked.
        assert!(addresses_may_meet(home, None, false));
        assert!(addresses_may_meet(None, None, false));
    }
}
