//! A member's [`RoomCommand`], as the room carries it out (whoever sent it: a session here or
//! a proxy for a member of another instance).

use minotty_protocol::{RoomCommand, RoomState};
use tokio::time::Instant;

use super::Room;
use crate::versus::MemberId;

impl Room {
    pub(super) fn command(&mut self, id: MemberId, command: RoomCommand, now: Instant) {
        match command {
            RoomCommand::Ready { ready } => {
                if let Some(i) = self.seat_of(id)
                    && self.state != RoomState::Playing
                {
                    self.seats[i].ready = ready;
                    self.broadcast_view();
                }
            }
            RoomCommand::Start | RoomCommand::Rematch if self.refused_while_draining(id) => {}
            RoomCommand::Start => self.start_request(id, now),
            RoomCommand::Rematch => self.rematch(id, now),
            RoomCommand::Targeting { targeting } => {
                if let Some(i) = self.seat_of(id) {
                    self.seats[i].targeting = targeting;
                    if let Some(live) = self.live.as_mut()
                        && let Some(p) = live.index_of(id)
                    {
                        live.router.set_targeting(p, targeting);
                    }
                }
            }
            RoomCommand::Report { reports } => self.reports(id, reports, now),
            RoomCommand::AddBot { level } => self.add_bot(id, level),
            RoomCommand::AddTbpBot { name } => self.add_tbp_bot(id, &name),
            RoomCommand::RemoveBot { seat } => self.remove_bot(id, seat),
            RoomCommand::SetListed { listed } => self.set_listed(id, listed),
            RoomCommand::Settings { settings } => self.change_settings(id, settings, now),
            RoomCommand::Team { seat, team } => self.choose_team(id, seat, team, now),
        }
    }
}
