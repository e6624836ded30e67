//! The climb on the server: a drop-in battle without rounds (`minotty_engine::versus::climb`
//! has its rules). Each climb is a task of its own (`climb/task.rs`) registered as a room, so a
//! session routes its reports, its "climb again" (a `Rematch`) and its leave to it as to any
//! room; the first climb of an instance has the code [`CLIMB_CODE`] (`join UPWARD` finds it).
//!
//! Bounds: at most [`CLIMBERS_MAX`] climbers in a climb and [`CLIMBS_MAX`] climbs on an
//! instance (a join finds the first climb with room, and a new climb opens only when every
//! one is full); bots fill a climb up to [`MIN_CLIMBERS`] from the server's bot pool (never
//! beyond its bounds) and give their place up when people come; a climber who does not climb
//! again within [`IDLE_AFTER_RUN`] of a run's end is let go; boards go out at most every
//! [`VIEW_EVERY`], each with at most [`SHOWN_OTHERS`] other climbers; a run's replay is
//! verified (on a blocking thread, one at a time per climber) before its height is stored,
//! and the store keeps one row per player and day.

mod record;
mod task;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::{Hub, Member, RoomLink, RoomMsg, lock};

/// Climbers in one climb at most.
pub const CLIMBERS_MAX: usize = 16;
/// Climbs on one instance at most.
pub const CLIMBS_MAX: usize = 8;
/// Bots fill a climb up to this many climbers.
pub const MIN_CLIMBERS: usize = 3;
/// The built-in bots' level in a climb.
pub const BOT_LEVEL: u8 = 3;
/// The code of an instance's first climb.
pub const CLIMB_CODE: &str = "UPWARD";
/// Boards and climb views go out at most this often.
pub const VIEW_EVERY: Duration = Duration::from_millis(200);
/// Other climbers' boards each climber is sent at most (the highest).
pub const SHOWN_OTHERS: usize = 7;
/// A climber whose run ended and who does not climb again within this is let go.
pub const IDLE_AFTER_RUN: Duration = Duration::from_secs(120);
/// A bot starts its next run this long after its last ended.
pub const BOT_REST: Duration = Duration::from_secs(2);

/// The instance's climbs: each one's address and how many climbers it has.
#[derive(Debug, Default)]
pub struct Climbs {
    list: std::sync::Mutex<Vec<(RoomLink, Arc<AtomicUsize>)>>,
}

impl Climbs {
    /// Whether `room` is one of the climbs.
    pub fn is(&self, room: &RoomLink) -> bool {
        lock(&self.list)
            .iter()
            .any(|(link, _)| link.tx.same_channel(&room.tx))
    }

    /// Climbs open now.
    pub fn open(&self) -> usize {
        let mut list = lock(&self.list);
        list.retain(|(link, _)| !link.tx.is_closed());
        list.len()
    }
}

impl Hub {
    /// `member` joins the first climb with room, or a new one; `Err` says why not.
    pub fn join_climb(self: &Arc<Self>, member: Member) -> Result<(), String> {
        let mut list = lock(&self.climbs.list);
        list.retain(|(link, _)| !link.tx.is_closed());
        let free = list
            .iter()
            .find(|(_, n)| n.load(Ordering::Relaxed) < CLIMBERS_MAX)
            .map(|(link, _)| link.clone());
        if let Some(link) = free {
            drop(list);
            return if link.send(RoomMsg::Join {
                member,
                spectate: false,
            }) {
                Ok(())
            } else {
                Err("The climb is busy: try again.".to_owned())
            };
        }
        if list.len() >= CLIMBS_MAX {
            return Err(format!(
                "Every climb is full ({CLIMBS_MAX} climbs of {CLIMBERS_MAX} climbers): try \
                 again in a moment."
            ));
        }
        let opened = task::spawn(Arc::clone(self), member)
            .ok_or_else(|| "The server has no free room code: try again.".to_owned())?;
        list.push(opened);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_climb_code_is_a_room_code() {
        let code = minotty_domain::RoomCode::parse(CLIMB_CODE).expect("a code");
        assert_eq!(code.as_str(), CLIMB_CODE);
    }
}
