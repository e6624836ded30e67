//! The lobby: members joining and leaving, the host, asking to start and to play again.

use minotty_engine::versus::Targeting;
use minotty_protocol::RoomState;
use minotty_ui::Response;
use tokio::time::Instant;

use super::{Room, Seat};
use crate::versus::{Member, MemberId};

impl Room {
    pub(super) fn join(&mut self, member: Member, spectate: bool, now: Instant) {
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
        } else if self.seats.len() >= usize::from(self.options.max_players()) {
            Some(format!(
                "Room {} is full ({} players).",
                self.code,
                self.options.max_players()
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
        let team = self.newcomer_team();
        self.seats.push(Seat {
            member,
            ready: false,
            connected: true,
            rating: None,
            targeting: Targeting::default(),
            bot: None,
            away_until: None,
            team,
        });
        self.broadcast_view();
    }

    pub(super) fn leave(&mut self, id: MemberId, disconnected: bool, now: Instant) {
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
            // A player already out (knocked out, forfeited) who leaves takes nothing from
            // the others: the match goes on, and their place stands.
            let mut out = false;
            if let Some(live) = self.live.as_mut()
                && let Some(p) = live.index_of(id)
            {
                out = !live.router.is_alive(p);
                let player = &mut live.players[p];
                player.disconnected = disconnected;
                player.left = true;
                if !out {
                    player.forfeited = true;
                    live.router.knock_out(p);
                    live.dirty = true;
                    live.everyone = true;
                }
                if disconnected && let Some(account) = &member.account {
                    self.hub.note_dropped(account.id, &self.code, out);
                }
            }
            if !disconnected {
                let message = if out {
                    format!(
                        "You left room {}: the match goes on without you.",
                        self.code
                    )
                } else {
                    format!(
                        "You left the match in room {}: it counts as a loss.",
                        self.code
                    )
                };
                member.send(Response::RoomClosed { message });
            }
            if self.live.as_ref().is_some_and(|l| l.router.is_over()) {
                self.end_match(now);
            }
        } else if self.series_in_progress() && self.state != RoomState::Playing {
            // Between two games of a ranked series: the leaver's seat plays the next game at
            // once, out of it from its start (`start_match`), and so concedes the series.
            self.seats[i].connected = false;
            if !disconnected {
                member.send(Response::RoomClosed {
                    message: format!(
                        "You left the ranked series in room {}: it counts as a loss.",
                        self.code
                    ),
                });
            }
            self.start_match(now);
            return;
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
    pub(super) fn fix_host(&mut self) {
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

    pub(super) fn start_request(&mut self, id: MemberId, now: Instant) {
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
    pub(super) fn rematch(&mut self, id: MemberId, now: Instant) {
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
}
