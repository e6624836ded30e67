//! Bots in a room: the host seats them in empty seats and takes them out again (in the lobby
//! or after a match). A bot seat is a member like a player's (see `versus/bot.rs`); the room
//! only keeps its name and level, never rates it, and closes when no person is left.

use minotty_bots::versus::Level;
use minotty_engine::versus::Targeting;
use minotty_protocol::RoomState;
use minotty_ui::Response;
use tokio::time::Instant;

use super::{Room, Seat};
use crate::shares::Full;
use crate::versus::MemberId;
use crate::versus::bot::{self, BotGuard, pool::Builtin, tbp::Tbp};
use minotty_domain::ClientAddr;

impl Room {
    /// Whether a person (not a bot) is still connected.
    pub(super) fn has_people(&self) -> bool {
        self.seats.iter().any(|s| s.connected && s.bot.is_none())
    }

    fn bot_count(&self) -> usize {
        self.seats.iter().filter(|s| s.bot.is_some()).count()
    }

    /// Seats of the operator's TBP bots (every bot but the built-in one, which has a level).
    fn tbp_count(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| s.bot.as_ref().is_some_and(|b| b.level.is_none()))
            .count()
    }

    fn notice(&self, id: MemberId, message: String) {
        if let Some(i) = self.seat_of(id) {
            self.seats[i].member.send(Response::Notice { message });
        }
    }

    /// Why `id` cannot add a bot now, if it cannot.
    fn bot_refusal(&self, id: MemberId) -> Option<String> {
        if self.ranked {
            Some("A ranked match has no bots.".to_owned())
        } else if self.host != Some(id) {
            Some("Only the host can add bots.".to_owned())
        } else if self.state == RoomState::Playing {
            Some("Bots join between matches.".to_owned())
        } else if self.seats.len() >= usize::from(self.options.max_players()) {
            Some(format!(
                "The room is full ({} players).",
                self.options.max_players()
            ))
        } else {
            None
        }
    }

    /// A place among the server's bots (a TBP bot's with `tbp`) for a bot the host `id` asks
    /// for, after the room's rules and then `check` (the request's own) allow it, counted
    /// against the host's address; otherwise `id` is told why not.
    fn claim_bot(
        &mut self,
        id: MemberId,
        tbp: bool,
        check: impl FnOnce(&Self) -> Option<String>,
    ) -> Option<BotGuard> {
        let refusal = self.bot_refusal(id).or_else(|| check(self));
        if let Some(message) = refusal {
            self.notice(id, message);
            return None;
        }
        let address = self
            .seat_of(id)
            .and_then(|i| self.seats[i].member.address)
            .map(ClientAddr::key);
        let bots = &self.hub.bots;
        let claimed = if tbp {
            bots.claim_tbp(address)
        } else {
            bots.claim(address)
        };
        match claimed {
            Ok(guard) => Some(guard),
            Err(full) => {
                let [(per, _), (per_tbp, held_tbp)] = bots.shares_of(address);
                let message = match full {
                    Full::Pool => "The server is running as many bots as it can right now: try \
                                   again later."
                        .to_owned(),
                    Full::Address if tbp && held_tbp >= per_tbp => format!(
                        "Your address has {per_tbp} external bot(s) seated already, the most \
                         one address may: remove one first."
                    ),
                    Full::Address => format!(
                        "Your address has {per} bots seated already, the most one address \
                         may: remove one first."
                    ),
                };
                self.notice(id, message);
                None
            }
        }
    }

    /// After a bot took a seat: a room showing results is back in its lobby, and everyone
    /// sees the new seat.
    fn bot_seated(&mut self) {
        if self.state == RoomState::Results {
            self.state = RoomState::Lobby;
        }
        self.broadcast_view();
    }

    /// The host asks for a bot of `level`.
    pub(super) fn add_bot(&mut self, id: MemberId, level: u8) {
        let Some(level) = Level::new(level) else {
            // Refused as the room would refuse any bot first, then for the level.
            let message = self
                .bot_refusal(id)
                .unwrap_or_else(|| "Bot levels go from 1 to 7.".to_owned());
            self.notice(id, message);
            return;
        };
        let Some(guard) = self.claim_bot(id, false, |_| None) else {
            return;
        };
        self.seat_bot(level, guard);
        tracing::info!(room = %self.code, level = level.number(), bots = self.bot_count(), "bot added");
        self.bot_seated();
    }

    /// The host asks for the operator's TBP bot called `name`. It counts among the server's
    /// bots and takes one of the TBP slots, at most `max_per_host` of them for one host's room
    /// (one by default: a guest cannot take every slot of the server); its process starts with
    /// the seat's first match, in the seat's poller.
    pub(super) fn add_tbp_bot(&mut self, id: MemberId, name: &str) {
        let max = self.hub.tbp.settings().max_per_host;
        let unknown = |room: &Self| {
            if !room.hub.tbp.has(name) {
                Some("This server has no such bot.".to_owned())
            } else if room.tbp_count() >= max {
                Some(match max {
                    0 => "This server lets no host seat its external bots.".to_owned(),
                    1 => "A host may seat one external bot at a time: remove it first.".to_owned(),
                    n => format!("A host may seat {n} external bots at a time: remove one first."),
                })
            } else {
                None
            }
        };
        let Some(guard) = self.claim_bot(id, true, unknown) else {
            return;
        };
        let pace = self.hub.tbp.settings().min_piece;
        let poller = match self.hub.tbp.poller(name, pace) {
            Some(Ok(poller)) => poller.named(name, &self.code.to_string()),
            Some(Err(_)) | None => {
                self.notice(
                    id,
                    "Every external bot the server can run is playing: try again later.".to_owned(),
                );
                return;
            }
        };
        self.seat_driver(Box::new(Tbp::new(name, poller)), guard);
        tracing::info!(room = %self.code, bot = name, bots = self.bot_count(), "TBP bot added");
        self.bot_seated();
    }

    /// Seats a built-in bot of `level` (its place in the server's count is `guard`).
    pub(super) fn seat_bot(&mut self, level: Level, guard: BotGuard) {
        let driver = Box::new(Builtin::new(level, self.hub.bots.pool()));
        self.seat_driver(driver, guard);
    }

    /// Seats a bot played by `driver`, whatever kind it is.
    pub(super) fn seat_driver(&mut self, driver: Box<dyn bot::BotDriver>, guard: BotGuard) {
        let id = self.hub.next_member();
        let (member, seat) = bot::spawn(&mut self.bot_tasks, id, self.link.clone(), driver, guard);
        let team = self.newcomer_team();
        self.seats.push(Seat {
            member,
            ready: true,
            connected: true,
            rating: None,
            targeting: Targeting::default(),
            bot: Some(seat),
            away_until: None,
            team,
        });
    }

    /// The bot `id` can play no more (its process forfeited and was ended): its seat is freed
    /// (as when a player leaves) and the people in the room are told why, so a rematch goes
    /// on without it knowingly.
    pub(super) fn bot_retired(&mut self, id: MemberId, reason: &str, now: Instant) {
        let Some(i) = self.seat_of(id) else {
            return;
        };
        let name = self.seats[i].member.name.clone();
        tracing::info!(room = %self.code, bot = %name, reason, "a bot that forfeited leaves its seat");
        let message = format!("{name} forfeited ({reason}) and left its seat.");
        for s in self.seats.iter().filter(|s| s.connected && s.bot.is_none()) {
            s.member.send(Response::Notice {
                message: message.clone(),
            });
        }
        self.leave(id, true, now);
    }

    /// The host takes the bot in `seat` out.
    pub(super) fn remove_bot(&mut self, id: MemberId, seat: usize) {
        if self.host != Some(id) {
            self.notice(id, "Only the host can remove bots.".to_owned());
            return;
        }
        if self.state == RoomState::Playing {
            self.notice(id, "Bots leave between matches.".to_owned());
            return;
        }
        if self.seats.get(seat).is_none_or(|s| s.bot.is_none()) {
            return;
        }
        let gone = self.seats.remove(seat);
        // Its task ends on this; its place in the server's count comes back with it.
        gone.member.send(Response::RoomClosed {
            message: "removed".to_owned(),
        });
        self.broadcast_view();
    }
}
