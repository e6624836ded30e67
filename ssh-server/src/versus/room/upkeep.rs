//! A room's upkeep beside its rules: the views it sends (only when they changed), members too
//! far behind to keep, its close after a panic, and the ranked claims of its players.

use std::panic::{AssertUnwindSafe, catch_unwind};

use minotty_protocol::{RoomView, SeatView};
use minotty_ui::Response;
use tokio::time::Instant;

use super::{Member, MemberId, Room};

impl Room {
    /// Everyone the room talks to: connected players (not bots: they only hear about their
    /// matches), then spectators.
    fn listeners(&self) -> impl Iterator<Item = &Member> {
        self.seats
            .iter()
            .filter(|s| s.connected && s.bot.is_none())
            .map(|s| &s.member)
            .chain(self.spectators.iter())
    }

    /// A panic while handling a message: the room's state cannot be trusted, so it closes at
    /// once (no match stored) and tells whoever it can. Nobody else notices.
    pub(super) fn crash(&mut self, panic: &(dyn std::any::Any + Send)) {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        tracing::error!(room = %self.code, panic = %what, "a room panicked: it is closed");
        self.hub.unregister(&self.code, &self.link.tx);
        let members: Vec<Member> = self.listeners().cloned().collect();
        let _ = catch_unwind(AssertUnwindSafe(|| {
            for m in &members {
                m.clear_room(&self.code);
                m.send(Response::RoomClosed {
                    message: format!(
                        "{} closed: something went wrong on the server (a match in it is not \
                         counted).",
                        capitalized(&self.room_name(m.id))
                    ),
                });
            }
        }));
    }

    /// Members too far behind to get everything the room sends (their backlog overflowed)
    /// leave: a forfeit in a match, told with one last message.
    pub(super) fn let_go_of_laggards(&mut self, now: Instant) {
        let lagging: Vec<Member> = self
            .listeners()
            .filter(|m| m.tx.overflowed())
            .cloned()
            .collect();
        for m in lagging {
            tracing::warn!(room = %self.code, member = m.id.0, "a member cannot keep up: let go");
            // Named before the leave, which forgets how the member came.
            let room = self.room_name(m.id);
            self.leave(m.id, true, now);
            m.tx.send_last(Response::RoomClosed {
                message: format!(
                    "You left {room}: your connection could not keep up with it (in a match, a \
                     loss)."
                ),
            });
        }
    }

    /// The ranked match is over: its players may play ranked elsewhere.
    pub(super) fn release_claims(&mut self) {
        for c in self.claims.drain(..) {
            self.hub.release_ranked(c);
        }
    }

    /// Before a ranked rematch: every player's account claims ranked play again. `false`
    /// (everyone told why) when one of them is queued or plays ranked on another connection.
    pub(super) fn claim_ranked(&mut self) -> bool {
        self.claims.retain(|c| self.hub.holds_ranked(*c));
        if !self.claims.is_empty() {
            return true;
        }
        let mut busy = None;
        for s in &self.seats {
            let Some(account) = &s.member.account else {
                continue;
            };
            match self.hub.claim_ranked(account.id) {
                Some(c) => self.claims.push(c),
                None => {
                    busy = Some(s.member.name.clone());
                    break;
                }
            }
        }
        let Some(name) = busy else {
            return true;
        };
        self.release_claims();
        for s in &mut self.seats {
            s.ready = false;
            s.member.send(Response::Notice {
                message: format!(
                    "No rematch: {name} is already queued or in a ranked match on another \
                     connection."
                ),
            });
        }
        false
    }

    pub(super) fn view(&self, you: Option<usize>, id: MemberId) -> RoomView {
        RoomView {
            code: self.code_for(id).to_owned(),
            options: self.options,
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SeatView {
                    name: s.member.name.clone(),
                    ready: s.ready,
                    host: self.host == Some(s.member.id),
                    connected: s.connected,
                    rating: s.rating.map(|r| r.rating.round() as i32),
                    bot: s.bot.as_ref().map(|b| b.level.unwrap_or(0)),
                    team: self.shown_team(i),
                })
                .collect(),
            spectators: self.spectators.len() as u32,
            you,
            host: self.host == Some(id),
            state: self.state,
            ranked: self.ranked,
            listed: self.listed,
            // The host chooses among the operator's TBP bots by name.
            tbp_bots: if self.host == Some(id) && !self.ranked {
                self.hub.tbp.names().map(str::to_owned).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// Sends `member` the room as they see it, unless that is what they were sent last.
    pub(super) fn send_view(&mut self, member: &Member) {
        let you = self.seat_of(member.id);
        let view = self.view(you, member.id);
        if self.sent_views.get(&member.id) == Some(&view) {
            return;
        }
        self.sent_views.insert(member.id, view.clone());
        member.send(Response::Room(view));
    }

    /// Sends every member the room as they see it, where it changed.
    pub(super) fn broadcast_view(&mut self) {
        let members: Vec<Member> = self.listeners().cloned().collect();
        for m in &members {
            self.send_view(m);
        }
    }

    /// `id` is no longer in the room: a later return gets the whole view again.
    pub(super) fn forget_view(&mut self, id: MemberId) {
        self.sent_views.remove(&id);
    }
}

/// `s` with its first letter upper case (a sentence starting with a room's name).
pub(super) fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
