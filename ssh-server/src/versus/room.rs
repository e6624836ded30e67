//! One room: its own task owning the seats, the spectators and, during a match, the engine's
//! `Router`. It sleeps until a member's message, the next coalesced `Opponents`, a time limit
//! or the deadline for replays.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use minotty_engine::rating::{DEFAULT_TAU, Outcome, Rating};
use minotty_engine::versus::{MatchKind, PlayerView, Router, Targeting};
use minotty_engine::{Mode, Replay, Stat};
use minotty_ui::online::{
    BoardSnapshot, MatchResult, MatchStart, OpponentView, Progress, Report, Response, ResultRow,
    RoomLimit, RoomOptions, RoomState, RoomView,
};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

mod bots;
mod contact;
mod drained;
mod kept;
mod listed;
mod msg;
mod spectators;
mod upkeep;
mod verify;

pub use contact::ContactLoss;
pub use msg::RoomMsg;

use super::bot::{BotGuard, BotSeat};
use super::{
    COUNTDOWN, Hub, Member, MemberId, OPPONENTS_INTERVAL, REPLAY_GRACE, ROOM_INBOX, RankedClaim,
    RoomLink, unix_now,
};
use crate::store::{MatchPlayer, NewMatch};

/// Starts a room with `players` seated (the first is the host of a private room); a ranked
/// room starts its match at once, with the players' `claims` on ranked play (released when
/// the match ends). With `bot`, a bot of that level takes a seat too and the match starts at
/// once (the quick match's bot match, unranked).
pub(super) fn spawn(
    hub: Arc<Hub>,
    options: RoomOptions,
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
    };
    let mut room = Room {
        hub,
        code,
        options: sanitize_options(options),
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

/// Limits a host's choices to what the rooms support.
fn sanitize_options(mut o: RoomOptions) -> RoomOptions {
    o.max_players = o.max_players.clamp(2, 8);
    o.limit = match (o.kind, o.limit) {
        (MatchKind::Race, _) => RoomLimit::None,
        (_, RoomLimit::Lines(n)) => RoomLimit::Lines(n.clamp(1, 1000)),
        (_, RoomLimit::Seconds(s)) => RoomLimit::Seconds(s.clamp(10, 3600)),
        (_, RoomLimit::None) => RoomLimit::None,
    };
    o
}

/// The mode every player's engine runs: races are 40 lines; battles are endless or end at a
/// lines goal (a time limit is kept by the room).
pub fn match_mode(options: &RoomOptions) -> Mode {
    match (options.kind, options.limit) {
        (MatchKind::Race, _) => Mode::sprint(),
        (MatchKind::Battle, RoomLimit::Lines(n)) => {
            Mode::custom(0, true, Some((Stat::Lines, u64::from(n))))
        }
        (MatchKind::Battle, _) => Mode::custom(0, true, None),
    }
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
    code: String,
    options: RoomOptions,
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
        let players: Vec<&str> = live
            .players
            .iter()
            .map(|p| p.member.name.as_str())
            .collect();
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
        let Some(live) = self.live.as_mut() else {
            return;
        };
        if !live.over && live.deadline.is_some_and(|d| now >= d) {
            // Time is up: the most attack sent wins, then the most lines.
            let mut ranking: Vec<usize> = (0..live.players.len()).collect();
            ranking.sort_by_key(|&p| {
                std::cmp::Reverse((live.router.sent(p), live.players[p].progress.lines))
            });
            live.router.close(&ranking);
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
            RoomMsg::Ready { id, ready } => {
                if let Some(i) = self.seat_of(id)
                    && self.state != RoomState::Playing
                {
                    self.seats[i].ready = ready;
                    self.broadcast_view();
                }
            }
            RoomMsg::Start { id } | RoomMsg::Rematch { id } if self.refused_while_draining(id) => {}
            RoomMsg::Start { id } => self.start_request(id, now),
            RoomMsg::Rematch { id } => self.rematch(id, now),
            RoomMsg::Targeting { id, targeting } => {
                if let Some(i) = self.seat_of(id) {
                    self.seats[i].targeting = targeting;
                    if let Some(live) = self.live.as_mut()
                        && let Some(p) = live.index_of(id)
                    {
                        live.router.set_targeting(p, targeting);
                    }
                }
            }
            RoomMsg::Report { id, reports } => self.reports(id, reports, now),
            RoomMsg::AddBot { id, level } => self.add_bot(id, level),
            RoomMsg::AddTbpBot { id, name } => self.add_tbp_bot(id, &name),
            RoomMsg::RemoveBot { id, seat } => self.remove_bot(id, seat),
            RoomMsg::BotRetired { id, reason } => self.bot_retired(id, &reason, now),
            RoomMsg::SetListed { id, listed } => self.set_listed(id, listed),
            RoomMsg::Rejoin { member } => self.rejoin(member),
            RoomMsg::Shutdown => self.abandon(),
            RoomMsg::DrainedAway { id } => self.drained_away(id, now),
            #[cfg(test)]
            RoomMsg::Panic => panic!("a test asked room {} to panic", self.code),
            #[cfg(test)]
            RoomMsg::SeatDriver(driver) => {
                if let Some(guard) = self.hub.bots.claim() {
                    self.seat_driver(driver, guard);
                    self.broadcast_view();
                }
            }
        }
    }

    fn join(&mut self, member: Member, spectate: bool, now: Instant) {
        if self.seat_of(member.id).is_some() || self.spectators.iter().any(|s| s.id == member.id) {
            member.set_room(self.link.clone());
            // Asked again: sent even when unchanged.
            self.sent_views.remove(&member.id);
            self.send_view(&member);
            return;
        }
        if spectate {
            self.spectate(member, false, now);
            return;
        }
        let refusal = if self.ranked {
            Some(format!(
                "Room {} is a ranked match: you can watch it as a spectator.",
                self.code
            ))
        } else if self.state == RoomState::Playing {
            Some(format!(
                "The match in room {} has started: watch it as a spectator, or join after it.",
                self.code
            ))
        } else if self.seats.len() >= usize::from(self.options.max_players) {
            Some(format!(
                "Room {} is full ({} players).",
                self.code, self.options.max_players
            ))
        } else {
            None
        };
        if let Some(message) = refusal {
            member.send(Response::RoomFailed { message });
            return;
        }
        member.set_room(self.link.clone());
        if self.host.is_none() {
            self.host = Some(member.id);
        }
        if self.state == RoomState::Results {
            self.state = RoomState::Lobby;
        }
        self.seats.push(Seat {
            member,
            ready: false,
            connected: true,
            rating: None,
            targeting: Targeting::default(),
            bot: None,
            away_until: None,
        });
        self.broadcast_view();
    }

    fn leave(&mut self, id: MemberId, disconnected: bool, now: Instant) {
        if let Some(i) = self.spectators.iter().position(|s| s.id == id) {
            let s = self.spectators.remove(i);
            self.forget_view(id);
            let by_live = self.by_live.remove(&id);
            s.clear_room(&self.code);
            if !disconnected {
                s.send(Response::RoomClosed {
                    message: if by_live {
                        "You stopped watching the match.".to_owned()
                    } else {
                        format!("You left room {}.", self.code)
                    },
                });
            }
            self.broadcast_view();
            return;
        }
        let Some(i) = self.seat_of(id) else {
            return;
        };
        let member = self.seats[i].member.clone();
        member.clear_room(&self.code);
        self.forget_view(id);
        if disconnected && self.hub.is_shutting_down() {
            self.abandon();
        }
        let Some(i) = self.seat_of(id) else {
            return;
        };
        let in_match = self
            .live
            .as_ref()
            .is_some_and(|l| !l.over && l.index_of(id).is_some());
        if in_match {
            self.seats[i].connected = false;
            if let Some(live) = self.live.as_mut()
                && let Some(p) = live.index_of(id)
            {
                let player = &mut live.players[p];
                player.forfeited = true;
                player.disconnected = disconnected;
                live.router.knock_out(p);
                live.dirty = true;
                live.everyone = true;
                if disconnected && let Some(account) = &member.account {
                    self.hub.note_dropped(account.id, &self.code);
                }
            }
            if !disconnected {
                member.send(Response::RoomClosed {
                    message: format!(
                        "You left the match in room {}: it counts as a loss.",
                        self.code
                    ),
                });
            }
            if self.live.as_ref().is_some_and(|l| l.router.is_over()) {
                self.end_match(now);
            }
        } else if disconnected && self.keep_seat(i, now) {
            // Kept for the member's return (`room/kept.rs`).
        } else {
            self.seats.remove(i);
            if !disconnected {
                member.send(Response::RoomClosed {
                    message: format!("You left room {}.", self.code),
                });
            }
        }
        self.fix_host();
        self.broadcast_view();
    }

    /// A private room always has a host while it has players: the longest seated.
    fn fix_host(&mut self) {
        if self.ranked {
            return;
        }
        let person = |s: &&Seat| s.connected && s.bot.is_none();
        let ok = self
            .host
            .is_some_and(|h| self.seats.iter().filter(person).any(|s| s.member.id == h));
        if !ok {
            self.host = self.seats.iter().find(person).map(|s| s.member.id);
        }
    }

    fn start_request(&mut self, id: MemberId, now: Instant) {
        let Some(i) = self.seat_of(id) else {
            return;
        };
        let member = &self.seats[i].member;
        if self.host != Some(id) {
            member.send(Response::Notice {
                message: "Only the host can start the match.".into(),
            });
        } else if self.state == RoomState::Playing {
        } else if let Some(name) = self.reconnecting() {
            let message = format!("Waiting for {name} to reconnect.");
            self.seats[i].member.send(Response::Notice { message });
        } else if self.seats.len() < 2 {
            member.send(Response::Notice {
                message: format!(
                    "A match needs at least two players: friends join with the code {}.",
                    self.code
                ),
            });
        } else {
            self.start_match(now);
        }
    }

    /// After a match: the player wants another with the same players. When everyone in the
    /// room does, it starts.
    fn rematch(&mut self, id: MemberId, now: Instant) {
        let Some(i) = self.seat_of(id) else {
            return;
        };
        if self.state == RoomState::Playing {
            return;
        }
        self.state = RoomState::Lobby;
        self.seats[i].ready = true;
        if self.seats.len() >= 2 && self.seats.iter().all(|s| s.ready) {
            self.start_match(now);
        } else {
            self.broadcast_view();
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
                    .publish_match(&self.code, self.options.kind, players, private);
            self.listing = Some(listing);
        } else if !playing {
            self.listing = None;
        }
    }

    fn start_match(&mut self, now: Instant) {
        if self.live.as_ref().is_some_and(|l| l.over) {
            self.store_match();
        }
        if self.ranked && !self.claim_ranked() {
            self.broadcast_view();
            return;
        }
        let seed = self.hub.seed();
        let kind = self.options.kind;
        let targeting: Vec<Targeting> = self.seats.iter().map(|s| s.targeting).collect();
        let go = now + COUNTDOWN;
        let deadline = match self.options.limit {
            RoomLimit::Seconds(s) if kind == MatchKind::Battle => {
                Some(go + std::time::Duration::from_secs(u64::from(s)))
            }
            _ => None,
        };
        let remote = self.seats.iter().any(|s| self.is_remote(s.member.id));
        let players = self
            .seats
            .iter_mut()
            .map(|s| {
                // Bots are always ready for the next one.
                s.ready = s.bot.is_some();
                Player {
                    member: s.member.clone(),
                    bot: s.bot.clone(),
                    board: BoardSnapshot {
                        rows: vec![[0; 10]; 20],
                    },
                    progress: Progress::default(),
                    forfeited: false,
                    disconnected: false,
                    changed: false,
                    replay: None,
                    target: None,
                    rating: None,
                    rating_before: s.rating,
                }
            })
            .collect();
        self.live = Some(Live {
            kind,
            seed,
            router: Router::new(kind, &targeting, seed),
            go,
            started_at: unix_now(),
            ended_at: 0,
            deadline,
            players,
            dirty: false,
            everyone: false,
            next_flush: now,
            over: false,
            record_due: None,
            recorded: false,
            remote,
        });
        self.state = RoomState::Playing;
        tracing::info!(room = %self.code, players = self.seats.len(), ?kind, "match starts");
        if let Some(live) = &self.live {
            for (i, s) in self.seats.iter().enumerate() {
                s.member
                    .send(Response::MatchStart(self.match_start(live, Some(i), now)));
            }
            for s in &self.spectators {
                s.send(Response::MatchStart(self.match_start(live, None, now)));
            }
        }
        self.broadcast_view();
    }

    fn match_start(&self, live: &Live, you: Option<usize>, now: Instant) -> MatchStart {
        MatchStart {
            kind: live.kind,
            mode: match_mode(&self.options),
            seed: live.seed,
            players: live.players.iter().map(|p| p.member.name.clone()).collect(),
            you,
            countdown_ms: u64::try_from(live.go.saturating_duration_since(now).as_millis())
                .unwrap_or(0),
            ranked: self.ranked,
        }
    }

    fn reports(&mut self, id: MemberId, reports: Vec<Report>, now: Instant) {
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let Some(p) = live.index_of(id) else {
            return;
        };
        for report in reports {
            if let Report::Replay(replay) = report {
                live.players[p].replay = Some(*replay);
                continue;
            }
            // Once decided, only the replays that close the games are taken (the one sent with
            // the report that decided it too).
            if live.over || live.players[p].forfeited || live.router.is_over() {
                continue;
            }
            match report {
                Report::Attack { lines } => {
                    let views = live.views();
                    let at = live.elapsed_ms(now);
                    if let Some(to) = live.router.route(p, u32::from(lines), at, &views) {
                        live.players[p].target = Some(to);
                        live.players[to]
                            .member
                            .send(Response::Garbage { lines, from: p });
                        live.dirty = true;
                        live.everyone = true;
                    }
                }
                Report::Board(mut board) => {
                    board.rows.truncate(20);
                    live.players[p].board = board;
                    live.players[p].changed = true;
                    live.dirty = true;
                }
                Report::Progress(progress) => {
                    live.players[p].progress = progress;
                    live.players[p].changed = true;
                    live.dirty = true;
                    if let RoomLimit::Lines(n) = self.options.limit
                        && live.kind == MatchKind::Battle
                        && progress.lines >= n
                    {
                        win(live, p);
                    }
                }
                Report::Finished { won, progress } => {
                    live.players[p].progress = progress;
                    live.dirty = true;
                    live.everyone = true;
                    let goal = match (live.kind, self.options.limit) {
                        (MatchKind::Race, _) => Some(40),
                        (MatchKind::Battle, RoomLimit::Lines(n)) => Some(n),
                        _ => None,
                    };
                    if won && goal.is_some_and(|g| progress.lines >= g) {
                        win(live, p);
                    } else {
                        live.router.knock_out(p);
                    }
                }
                Report::Forfeited { progress } => {
                    // Given up from the prompt: the same as leaving the match, but the player
                    // stays in the room for the results.
                    live.players[p].progress = progress;
                    live.players[p].forfeited = true;
                    live.dirty = true;
                    live.everyone = true;
                    live.router.knock_out(p);
                }
                Report::Replay(_) => {}
            }
        }
        let over = live.over;
        if !over && live.router.is_over() {
            self.end_match(now);
        } else if over && self.replays_complete() {
            self.store_match();
        }
    }

    fn replays_complete(&self) -> bool {
        self.live.as_ref().is_some_and(|l| {
            l.players
                .iter()
                .all(|p| p.replay.is_some() || p.disconnected)
        })
    }

    fn end_match(&mut self, now: Instant) {
        let ranked = self.ranked;
        let code = self.code.clone();
        // A result resting on another instance's reports changes ratings only once verified
        // (`store_match`).
        let remote = self.has_remote_player();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        if live.over {
            return;
        }
        live.over = true;
        live.ended_at = unix_now();
        let n = live.players.len();
        // Anyone still unplaced (cannot happen with the router's rules, but a result needs a
        // place for everyone) goes after the placed, by lines.
        let mut rest: Vec<usize> = (0..n).collect();
        rest.sort_by_key(|&p| std::cmp::Reverse(live.players[p].progress.lines));
        live.router.close(&rest);
        for p in 0..n {
            if live.router.place(p).is_none() {
                live.router.knock_out(p);
            }
        }
        // A match with a bot is never rated (ranked rooms have no bots; this holds whatever).
        if ranked && n == 2 && live.players.iter().all(|p| p.bot.is_none()) {
            let before: Vec<Rating> = live
                .players
                .iter()
                .map(|p| p.rating_before.unwrap_or_default())
                .collect();
            for p in 0..2 {
                let score = if live.router.place(p) == Some(1) {
                    1.0
                } else {
                    0.0
                };
                let after = before[p].update(
                    &[Outcome {
                        opponent: before[1 - p],
                        score,
                    }],
                    DEFAULT_TAU,
                );
                live.players[p].rating = Some((before[p], after));
                if let Some(account) = &live.players[p].member.account
                    && !remote
                {
                    self.hub.set_rating(account.id, after);
                }
            }
        }
        let elapsed = live.elapsed_ms(now);
        let mut rows: Vec<ResultRow> = (0..n)
            .map(|p| {
                let pl = &live.players[p];
                let time_ms = if pl.progress.time_ms > 0 {
                    pl.progress.time_ms
                } else {
                    elapsed
                };
                let minutes = time_ms as f64 / 60_000.0;
                let attack_sent = match live.kind {
                    MatchKind::Battle => live.router.sent(p),
                    MatchKind::Race => pl.progress.attack_sent,
                };
                ResultRow {
                    seat: p,
                    name: pl.member.name.clone(),
                    place: live.router.place(p).unwrap_or(n as u8),
                    kos: live.router.kos(p),
                    attack_per_minute: if minutes > 0.0 {
                        f64::from(attack_sent) / minutes
                    } else {
                        0.0
                    },
                    pieces_per_second: if time_ms > 0 {
                        f64::from(pl.progress.pieces) * 1000.0 / time_ms as f64
                    } else {
                        0.0
                    },
                    lines: pl.progress.lines,
                    attack_sent,
                    garbage_received: live.router.received(p),
                    forfeited: pl.forfeited,
                    rating: pl.rating.map(|(b, a)| (b.rating, a.rating)),
                    time_ms,
                    pieces: pl.progress.pieces,
                }
            })
            .collect();
        rows.sort_by_key(|r| (r.place, r.seat));
        let winner = rows.first().map(|r| r.name.clone()).unwrap_or_default();
        for p in 0..n {
            let pl = &live.players[p];
            if pl.disconnected
                && let Some(account) = &pl.member.account
            {
                let place = live.router.place(p).unwrap_or(n as u8);
                let mut message = format!(
                    "Your match in room {code} ended while you were away: {winner} won; you \
                     placed {place} of {n} (left early: a loss)."
                );
                if let Some((b, a)) = pl.rating {
                    message.push_str(&format!(" Rating {:.0} -> {:.0}.", b.rating, a.rating));
                }
                self.hub.note_result(account.id, &code, message);
            }
        }
        let result = |you| MatchResult {
            kind: live.kind,
            rows: rows.clone(),
            you,
            ranked,
        };
        for (p, pl) in live.players.iter().enumerate() {
            if !pl.disconnected {
                pl.member.send(Response::MatchOver(result(Some(p))));
            }
        }
        for s in &self.spectators {
            s.send(Response::MatchOver(result(None)));
        }
        live.dirty = true;
        live.everyone = true;
        live.record_due = Some(now + REPLAY_GRACE);
        tracing::info!(room = %code, %winner, "match over");
        self.state = RoomState::Results;
        self.release_claims();
        // A rematch in a ranked room starts from the new ratings.
        let rated: Vec<(MemberId, Rating)> = self
            .live
            .as_ref()
            .map(|l| {
                l.players
                    .iter()
                    .filter_map(|p| p.rating.map(|(_, a)| (p.member.id, a)))
                    .collect()
            })
            .unwrap_or_default();
        for (id, after) in rated {
            if let Some(i) = self.seat_of(id) {
                self.seats[i].rating = Some(after);
            }
        }
        self.flush_opponents(now);
        // Players who left during the match leave their seats now.
        self.seats.retain(|s| s.connected);
        self.fix_host();
        self.broadcast_view();
        if self.replays_complete() {
            self.store_match();
        }
    }

    /// Hands the match to the recorder (once).
    fn store_match(&mut self) {
        let remote = self.has_remote_player();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        live.record_due = None;
        if live.recorded || !live.over {
            return;
        }
        live.recorded = true;
        let rated = self.ranked
            && live
                .players
                .iter()
                .all(|p| p.rating.is_some() && p.bot.is_none());
        if rated && remote {
            match verify::verify_ranked(live) {
                Ok(()) => {
                    for pl in &live.players {
                        if let (Some(account), Some((_, after))) = (&pl.member.account, pl.rating) {
                            self.hub.set_rating(account.id, after);
                        }
                    }
                }
                Err(why) => {
                    tracing::warn!(
                        room = %self.code,
                        %why,
                        "a ranked result from another instance did not verify: not rated"
                    );
                    for pl in &mut live.players {
                        pl.rating = None;
                        if !pl.disconnected {
                            pl.member.send(Response::Notice {
                                message: "The match's result could not be verified: it is \
                                          not rated."
                                    .into(),
                            });
                        }
                    }
                }
            }
        }
        let n = live.players.len() as u32;
        let players = live
            .players
            .iter()
            .enumerate()
            .map(|(p, pl)| MatchPlayer {
                seat: p as u32,
                player: pl.member.account.as_ref().map(|a| a.id),
                name: pl.member.name.clone(),
                place: live.router.place(p).map_or(n, u32::from),
                kos: live.router.kos(p),
                forfeited: pl.forfeited,
                lines: pl.progress.lines,
                pieces: pl.progress.pieces,
                attack_sent: match live.kind {
                    MatchKind::Battle => live.router.sent(p),
                    MatchKind::Race => pl.progress.attack_sent,
                },
                garbage_received: live.router.received(p),
                time_ms: pl.progress.time_ms,
                rating: pl.rating,
                replay: pl.replay.as_ref().map(Replay::to_bytes),
                bot: pl.bot.as_ref().map(|b| b.kind.clone()),
            })
            .collect();
        self.hub.record(NewMatch {
            kind: live.kind,
            ranked: self.ranked
                && live
                    .players
                    .iter()
                    .all(|p| p.rating.is_some() && p.bot.is_none()),
            room: self.code.clone(),
            seed: live.seed,
            started_at: live.started_at,
            ended_at: live.ended_at,
            players,
        });
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
                alive: live.router.is_alive(p) && !live.over || live.router.place(p) == Some(1),
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
            if news && !pl.disconnected && pl.bot.is_none() {
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

/// `p` reached the goal: in a race they take the best free place and the match ends; in a
/// battle with a lines goal they win.
fn win(live: &mut Live, p: usize) {
    let mut rest: Vec<usize> = (0..live.players.len()).filter(|&q| q != p).collect();
    rest.sort_by_key(|&q| std::cmp::Reverse(live.players[q].progress.lines));
    match live.kind {
        MatchKind::Race => {
            live.router.finish(p);
            live.router.close(&rest);
        }
        MatchKind::Battle => {
            rest.insert(0, p);
            live.router.close(&rest);
        }
    }
}

fn far_future() -> Instant {
    Instant::now() + std::time::Duration::from_secs(86_400)
}
