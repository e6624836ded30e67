//! Teams in a room (`engine::versus::teams`): each seat's team, picked in the lobby. A
//! newcomer (a bot too) joins the smallest team; a member moves themselves, the host moves
//! anyone ([`RoomCommand::Team`](minotty_protocol::RoomCommand::Team), at most
//! [`limits::TEAM_BURST`] then [`limits::TEAM_CHANGES_PER_MINUTE`] a minute per member); a
//! change of the teams setting deals the seats out again. A match of teams needs players on
//! two teams at least, and is never ranked.

use minotty_engine::versus::teams;
use minotty_protocol::RoomState;
use minotty_ui::Response;
use tokio::time::Instant;

use super::Room;
use crate::versus::{MemberId, limits};

impl Room {
    /// The team a new seat takes: the smallest (0 when the room plays free-for-all).
    pub(super) fn newcomer_team(&self) -> u8 {
        let picks: Vec<u8> = self.seats.iter().map(|s| s.team).collect();
        match self.options.teams() {
            t if t >= 2 => teams::smallest(&picks, t),
            _ => 0,
        }
    }

    /// Deals every seat out again (the teams setting changed).
    pub(super) fn deal_teams(&mut self) {
        let dealt = teams::balanced(self.seats.len(), self.options.teams());
        for (s, t) in self.seats.iter_mut().zip(dealt) {
            s.team = t;
        }
    }

    /// Seat `seat`'s team as everyone sees it (`None`: free-for-all).
    pub(super) fn shown_team(&self, seat: usize) -> Option<u8> {
        let t = self.options.teams();
        (t >= 2 && !self.ranked)
            .then(|| self.seats.get(seat).map(|s| s.team.min(t - 1)))
            .flatten()
    }

    /// The seats' teams for the match about to start: `Some(empty)` for free-for-all,
    /// `None` when the room plays teams but fewer than two teams have a player.
    pub(super) fn match_teams(&self) -> Option<Vec<u8>> {
        if self.ranked || self.options.teams() < 2 {
            return Some(Vec::new());
        }
        let picks: Vec<u8> = self.seats.iter().map(|s| s.team).collect();
        teams::assign(&picks, self.options.teams())
    }

    /// `id` asks to move seat `seat` to team `team`: their own seat, or any as the host; in
    /// a room of teams, out of a match, within their budget.
    pub(super) fn choose_team(&mut self, id: MemberId, seat: usize, team: u8, now: Instant) {
        let Some(i) = self.seat_of(id) else {
            return;
        };
        let teams = self.options.teams();
        let refusal = if teams < 2 || self.ranked {
            Some("This room plays free-for-all: the host can set teams (o settings).")
        } else if self.state == RoomState::Playing {
            Some("Teams can change after the match.")
        } else if seat != i && self.host != Some(id) {
            Some("Only the host can move other players.")
        } else if seat >= self.seats.len() {
            Some("There is no such seat.")
        } else if !self.team_budget_allows(id, now) {
            Some("Too many team changes: wait a little.")
        } else {
            None
        };
        if let Some(message) = refusal {
            self.seats[i].member.send(Response::Notice {
                message: message.to_owned(),
            });
            return;
        }
        let team = team.min(teams - 1);
        if self.seats[seat].team == team {
            return;
        }
        self.seats[seat].team = team;
        // A seat that changes sides is not ready for what it agreed to (bots stay ready).
        let s = &mut self.seats[seat];
        s.ready = s.bot.is_some();
        if self.state == RoomState::Results {
            self.state = RoomState::Lobby;
        }
        self.broadcast_view();
    }

    /// Takes one team change from `id`'s budget (the budgets kept are only those of seated
    /// members, at most the room's seats).
    fn team_budget_allows(&mut self, id: MemberId, now: Instant) -> bool {
        let ms = u64::try_from(now.saturating_duration_since(self.opened).as_millis())
            .unwrap_or(u64::MAX);
        let seated: Vec<MemberId> = self.seats.iter().map(|s| s.member.id).collect();
        self.team_budget.retain(|m, _| seated.contains(m));
        self.team_budget
            .entry(id)
            .or_insert_with(|| limits::team_changes(ms))
            .try_take(ms)
    }
}
