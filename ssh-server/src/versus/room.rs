//! One room: its own task owning the seats, the spectators and, during a match, the engine's
//! `Router`. It sleeps until a member's message, the next coalesced `Opponents`, a time limit
//! or the deadline for replays.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use minotty_engine::Replay;
use minotty_engine::rating::Rating;
use minotty_engine::versus::{MatchKind, PlayerView, Router, Targeting};
use minotty_protocol::{BoardSnapshot, OpponentView, Progress, RoomSettings, RoomState, RoomView};
use minotty_ui::Response;
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

mod bots;
mod command;
mod contact;
mod drained;
mod kept;
mod listed;
mod lobby;
mod msg;
mod play;
mod results;
mod series;
mod spectators;
mod teams;
mod upkeep;
mod verify;

pub use contact::ContactLoss;
pub use msg::RoomMsg;

use super::bot::{BotGuard, BotSeat};
use super::{Hub, Member, MemberId, OPPONENTS_INTERVAL, ROOM_INBOX, RankedClaim, RoomLink};

/// Starts a room with `players` seated (the first is the host of a private room); a ranked
/// room starts its match at once, with the players' `claims` on ranked play (released when
/// the match ends). With `bot`, a bot of that level takes a seat too and the match starts at
/// once (the quick match's bot match, unranked).
pub(super) fn spawn(
    hub: Arc<Hub>,
    options: RoomSettings,
    ranked: bool,
    players: Vec<(Member, Option<Rating>)>,
    claims: Vec<RankedClaim>,
    bot: Option<(minotty_bots::versus::Level, BotGuard)>,
) -> Option<RoomLink> {
    let (tx, rx) = mpsc::channel(ROOM_INBOX);
    let code = hub.register(&tx)?;
    let link = RoomLink {
        code: code.clone(),
        tx: tx.clone(),
        tasks: hub.tasks.clone(),
    };
    let mut room = Room {
        hub,
        code,
        options,
        ranked,
        link: link.clone(),
        seats: Vec::new(),
        spectators: Vec::new(),
        by_live: std::collections::HashSet::new(),
        host: None,
        state: RoomState::Lobby,
        live: None,
        sent_views: HashMap::new(),
        claims,
        listing: None,
        abandoned: false,
        listed: false,
        open_listing: None,
        bot_tasks: tokio::task::JoinSet::new(),
        opened: Instant::now(),
        settings_budget: HashMap::new(),
        team_budget: HashMap::new(),
        series: None,
        next_game: None,
        series_pause: None,
    };
    for (member, rating) in players {
        member.set_room(link.clone());
        if !ranked && room.host.is_none() {
            room.host = Some(member.id);
        }
        room.seats.push(Seat {
            member,
            ready: false,
            connected: true,
            rating,
            targeting: Targeting::default(),
            bot: None,
            away_until: None,
            team: 0,
        });
    }
    let with_bot = bot.is_some();
    if let Some((level, guard)) = bot {
        room.seat_bot(level, guard);
    }
    if ranked || with_bot {
        room.start_match(Instant::now());
    } else {
        room.broadcast_view();
    }
    tracing::info!(room = %room.code, ranked, "room opened");
    room.sync_listing();
    room.sync_open_listing();
    let hub = Arc::clone(&room.hub);
    hub.spawn_room(room.run(rx));
    Some(link)
}

#[derive(Debug)]
struct Seat {
    member: Member,
    ready: bool,
    /// `false` once the member left during a match (the seat stays until the match ends).
    connected: bool,
    rating: Option<Rating>,
    targeting: Targeting,
    /// A server bot sits here, not a person.
    bot: Option<BotSeat>,
    /// The member's connection dropped in the lobby: the seat is theirs until then.
    away_until: Option<Instant>,
    /// The seat's team when the room plays teams (`room/teams.rs`).
    team: u8,
}

/// One player of the match in progress (or just ended).
#[derive(Debug)]
struct Player {
    member: Member,
    bot: Option<BotSeat>,
    board: BoardSnapshot,
    progress: Progress,
    /// Left (or disconnected) before the end.
    forfeited: bool,
    disconnected: bool,
    /// Left the room during the match, by choice or not: sent nothing more of it.
    left: bool,
    replay: Option<Replay>,
    target: Option<usize>,
    rating: Option<(Rating, Rating)>,
    rating_before: Option<Rating>,
    /// This player's board or numbers changed since the last `Opponents` (what the others
    /// see of them).
    changed: bool,
}

#[derive(Debug)]
struct Live {
    kind: MatchKind,
    seed: u32,
    router: Router,
    /// When the countdown ends and the games start.
    go: Instant,
    started_at: i64,
    ended_at: i64,
    /// The time limit of a battle.
    deadline: Option<Instant>,
    players: Vec<Player>,
    /// Boards or numbers changed since the last `Opponents`: a flush is due.
    dirty: bool,
    /// Something every receiver sees changed (targets, knock-outs, the end), beyond the
    /// players' own `changed`.
    everyone: bool,
    next_flush: Instant,
    over: bool,
    /// When to store the match without the replays still missing; `None` once stored.
    record_due: Option<Instant>,
    recorded: bool,
    /// A player is a member of another instance (its result is verified before it is rated).
    remote: bool,
}

impl Live {
    fn index_of(&self, id: MemberId) -> Option<usize> {
        self.players.iter().position(|p| p.member.id == id)
    }

    /// The players' names in seat order (what a log line about the match lists).
    fn names(&self) -> Vec<&str> {
        self.players
            .iter()
            .map(|p| p.member.name.as_str())
            .collect()
    }

    /// Each player's lines so far, in seat order (what the match-over rules rank by).
    fn lines(&self) -> Vec<u32> {
        self.players.iter().map(|p| p.progress.lines).collect()
    }

    fn views(&self) -> Vec<PlayerView> {
        self.players
            .iter()
            .map(|p| PlayerView {
                stack_height: stack_height(&p.board),
                pending_garbage: p.progress.pending_garbage,
            })
            .collect()
    }

    /// Game time of the match (ms since the countdown ended), from the server's clock.
    fn elapsed_ms(&self, now: Instant) -> u64 {
        u64::try_from(now.saturating_duration_since(self.go).as_millis()).unwrap_or(u64::MAX)
    }
}

/// Rows from the lowest filled cell to the top of the visible board.
fn stack_height(board: &BoardSnapshot) -> u32 {
    let rows = board.rows.len();
    board
        .rows
        .iter()
        .position(|r| r.iter().any(|&c| c != 0))
        .map_or(0, |top| (rows - top) as u32)
}

struct Room {
    hub: Arc<Hub>,
    code: minotty_domain::RoomCode,
    options: RoomSettings,
    ranked: bool,
    link: RoomLink,
    seats: Vec<Seat>,
    spectators: Vec<Member>,
    /// Spectators who came from the Live list: never shown the room's code.
    by_live: std::collections::HashSet<MemberId>,
    host: Option<MemberId>,
    state: RoomState,
    live: Option<Live>,
    /// The last room view sent to each member: a view goes out only when it changed.
    sent_views: HashMap<MemberId, RoomView>,
    /// The players' claims on ranked play during a ranked match.
    claims: Vec<RankedClaim>,
    /// The match on the server's Live list while it is played (unlisted when dropped).
    listing: Option<crate::live::MatchListing>,
    /// A match was abandoned at shutdown: the room's closing message says it is not rated.
    abandoned: bool,
    /// The host lists the room among the open rooms (`room/listed.rs`).
    listed: bool,
    /// The room's entry on the list of open rooms, while it is listed, in its lobby and has a
    /// free seat (unlisted when dropped).
    open_listing: Option<super::open_rooms::OpenRoomListing>,
    /// The tasks of the bots seated here: ended with the room.
    bot_tasks: tokio::task::JoinSet<()>,
    /// When the room opened: the clock of its token buckets.
    opened: Instant,
    /// Each seated member's budget of settings changes (`room/series.rs`; only seated
    /// members have one).
    settings_budget: HashMap<MemberId, minotty_domain::TokenBucket>,
    /// Each seated member's budget of team changes (`room/teams.rs`).
    team_budget: HashMap<MemberId, minotty_domain::TokenBucket>,
    /// The series being played: its players (by member), their teams (empty: free-for-all)
    /// and score, by player or by team (`room/series.rs`).
    series: Option<(Vec<MemberId>, Vec<u8>, minotty_engine::versus::Series)>,
    /// A ranked series goes on by itself: when its next game starts (`room/series.rs`).
    next_game: Option<Instant>,
    /// Held from a ranked series' game end to its next game's start (a drain waits for it).
    series_pause: Option<super::ranked::SeriesPause>,
}

impl Drop for Room {
    /// However the task ends (even by a panic), the code is free again and the players may
    /// play ranked elsewhere.
    fn drop(&mut self) {
        self.hub.unregister(&self.code, &self.link.tx);
        for c in self.claims.drain(..) {
            self.hub.release_ranked(c);
        }
        self.forget_kept_seats();
    }
}

impl Room {
    async fn run(mut self, mut rx: mpsc::Receiver<RoomMsg>) {
        let _open = crate::metrics::room_opened();
        let why = loop {
            let wake = self.next_wake();
            let step = tokio::select! {
                msg = rx.recv() => match msg {
                    Some(RoomMsg::Shutdown) => {
                        self.abandon();
                        break "the server is restarting";
                    }
                    Some(msg) => {
                        catch_unwind(AssertUnwindSafe(|| self.handle(msg, Instant::now())))
                    }
                    None => break "every player left",
                },
                () = sleep_until(wake.unwrap_or_else(far_future)), if wake.is_some() => {
                    catch_unwind(AssertUnwindSafe(|| self.on_timer(Instant::now())))
                }
            };
            let step = step.and_then(|()| {
                catch_unwind(AssertUnwindSafe(|| self.let_go_of_laggards(Instant::now())))
            });
            if let Err(panic) = step {
                self.crash(&panic);
                return;
            }
            self.sync_listing();
            self.sync_open_listing();
            if !self.has_people() {
                break if self.hub.is_shutting_down() {
                    "the server is restarting"
                } else {
                    "every player left"
                };
            }
        };
        self.close(why);
    }

    /// The room closes (`why`: no player left, or shutdown): everyone still in it is told, a
    /// decided match is stored (with the replays that arrived).
    fn close(&mut self, why: &str) {
        self.hub.unregister(&self.code, &self.link.tx);
        self.open_listing = None;
        let message = if self.abandoned {
            format!(
                "Room {} closed: {why}; the match is abandoned, not rated.",
                self.code
            )
        } else {
            format!("Room {} closed: {why}.", self.code)
        };
        for s in self.seats.iter().filter(|s| s.connected) {
            s.member.clear_room(&self.code);
            s.member.send(Response::RoomClosed {
                message: message.clone(),
            });
        }
        for s in &self.spectators {
            s.clear_room(&self.code);
            s.send(Response::RoomClosed {
                message: if self.by_live.contains(&s.id) {
                    format!("The match's room closed: {why}.")
                } else {
                    message.clone()
                },
            });
        }
        self.spectators.clear();
        self.by_live.clear();
        if self.live.as_ref().is_some_and(|l| l.over) {
            self.store_match();
        }
        tracing::info!(room = %self.code, why, "room closed");
    }

    /// At shutdown a match still running is not decided by whoever's session ends first: it
    /// is dropped (logged, not stored, no ratings change).
    fn abandon(&mut self) {
        let Some(live) = self.live.take_if(|l| !l.over) else {
            return;
        };
        self.abandoned = true;
        let players = live.names();
        tracing::warn!(
            room = %self.code,
            ranked = self.ranked,
            ?players,
            "the server is shutting down: a match in progress is abandoned (not stored)"
        );
        self.state = RoomState::Lobby;
        self.seats.retain(|s| s.connected);
        for s in &mut self.seats {
            s.ready = s.bot.is_some();
        }
        self.fix_host();
        self.release_claims();
    }

    fn next_wake(&self) -> Option<Instant> {
        let kept = self.kept_wake();
        let kept = match (kept, self.next_game) {
            (Some(k), Some(n)) => Some(k.min(n)),
            (k, n) => k.or(n),
        };
        let Some(live) = self.live.as_ref() else {
            return kept;
        };
        let mut wake: Option<Instant> = kept;
        let mut at = |t: Instant| wake = Some(wake.map_or(t, |w| w.min(t)));
        if live.dirty {
            at(live.next_flush);
        }
        if !live.over
            && let Some(d) = live.deadline
        {
            at(d);
        }
        if let Some(d) = live.record_due {
            at(d);
        }
        wake
    }

    fn on_timer(&mut self, now: Instant) {
        self.expire_kept(now);
        self.next_ranked_game(now);
        let Some(live) = self.live.as_mut() else {
            return;
        };
        if !live.over && live.deadline.is_some_and(|d| now >= d) {
            let lines = live.lines();
            minotty_engine::versus::over::time_up(&mut live.router, &lines);
            self.end_match(now);
        }
        if self
            .live
            .as_ref()
            .is_some_and(|l| l.record_due.is_some_and(|d| now >= d))
        {
            self.store_match();
        }
        if self
            .live
            .as_ref()
            .is_some_and(|l| l.dirty && now >= l.next_flush)
        {
            self.flush_opponents(now);
        }
    }

    fn seat_of(&self, id: MemberId) -> Option<usize> {
        self.seats.iter().position(|s| s.member.id == id)
    }

    fn handle(&mut self, msg: RoomMsg, now: Instant) {
        match msg {
            RoomMsg::Join { member, spectate } => self.join(member, spectate, now),
            RoomMsg::WatchLive { member } => self.watch_live(member, now),
            RoomMsg::Leave { id, disconnected } => self.leave(id, disconnected, now),
            RoomMsg::LostContact { id, cause } => self.lost_contact(id, cause, now),
            RoomMsg::Command { id, command } => self.command(id, command, now),
            RoomMsg::BotRetired { id, reason } => self.bot_retired(id, &reason, now),
            RoomMsg::Rejoin { member } => self.rejoin(member),
            RoomMsg::Shutdown => self.abandon(),
            RoomMsg::DrainedAway { id } => self.drained_away(id, now),
            #[cfg(test)]
            RoomMsg::Panic => panic!("a test asked room {} to panic", self.code),
            #[cfg(test)]
            RoomMsg::SeatDriver(driver) => {
                if let Ok(guard) = self.hub.bots.claim(None) {
                    self.seat_driver(driver, guard);
                    self.broadcast_view();
                }
            }
        }
    }

    /// Lists the match on the Live screen while it is played, and only then.
    fn sync_listing(&mut self) {
        let playing = self.state == RoomState::Playing;
        if playing && self.listing.is_none() {
            let players = self.seats.iter().map(|s| s.member.name.clone()).collect();
            let private = !self.everyone_lets_others_watch();
            let listing =
                self.hub
                    .live
                    .publish_match(&self.code, self.options.kind(), players, private);
            self.listing = Some(listing);
        } else if !playing {
            self.listing = None;
        }
    }

    /// Every player's live view, skipping `skip`'s own.
    fn opponents(&self, skip: Option<usize>) -> Vec<OpponentView> {
        let Some(live) = &self.live else {
            return Vec::new();
        };
        live.players
            .iter()
            .enumerate()
            .filter(|&(p, _)| Some(p) != skip)
            .map(|(p, pl)| OpponentView {
                seat: p,
                name: pl.member.name.clone(),
                board: pl.board.clone(),
                progress: pl.progress,
                // The winner stays alive at the end (with teams, the winning team's players
                // still in).
                alive: live.router.is_alive(p) && !live.over
                    || live.router.place(p) == Some(1)
                        && (live.router.is_alive(p) || !live.router.has_teams()),
                place: live.router.place(p),
                kos: live.router.kos(p),
                target: pl.target,
            })
            .collect()
    }

    fn flush_opponents(&mut self, now: Instant) {
        let Some(live) = &self.live else {
            return;
        };
        for (p, pl) in live.players.iter().enumerate() {
            // Bots play blind: they never look at the others' boards. A player is sent the
            // others only when something of theirs changed: their own moves alone make no
            // `Opponents` (nor the frame it would cost them).
            let news = live.everyone
                || live
                    .players
                    .iter()
                    .enumerate()
                    .any(|(q, other)| q != p && other.changed);
            if news && !pl.left && pl.bot.is_none() {
                pl.member.send(Response::Opponents(self.opponents(Some(p))));
            }
        }
        if !self.spectators.is_empty() {
            let all = self.opponents(None);
            for s in &self.spectators {
                s.send(Response::Opponents(all.clone()));
            }
        }
        // The Live TV sees what spectators see, only while someone watches.
        if let Some(listing) = self.listing.as_ref().filter(|l| l.watched()) {
            listing.publish(self.opponents(None));
        }
        if let Some(live) = self.live.as_mut() {
            live.dirty = false;
            live.everyone = false;
            for pl in &mut live.players {
                pl.changed = false;
            }
            live.next_flush = now + OPPONENTS_INTERVAL;
        }
    }
}

fn far_future() -> Instant {
    Instant::now() + std::time::Duration::from_secs(86_400)
}
