//! The directory of open rooms: rooms whose host chose to list them ("l list room" in the
//! lobby), so that anyone can join from the versus menu's "Open rooms" without being told the
//! code. A room's code is its access control: a room is private (join by code only) unless its
//! host lists it, and a ranked room is never listed.
//!
//! A room keeps its entry through an [`OpenRoomListing`] while it is listed, in its lobby and
//! has a free seat; the entry goes when any of that stops being so, or when the room closes
//! (the listing is dropped with the room, even by a panic). Only this instance's rooms are
//! listed (in a cluster, a room on another instance is joined by its code). At most
//! [`MAX_OPEN_LISTED`] entries are sent in one list.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use minotty_domain::RoomCode;
use minotty_protocol::{OpenRoomEntry, RoomOptions};

use super::lock;

/// Entries sent in one list (the oldest listed rooms first).
pub const MAX_OPEN_LISTED: usize = 50;

/// Every listed room of this instance, by listing order.
#[derive(Clone, Debug, Default)]
pub struct OpenRooms {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    rooms: Mutex<BTreeMap<u64, OpenRoomEntry>>,
    next: AtomicU64,
}

impl OpenRooms {
    /// Lists a room as it is now; unlisted when the returned listing is dropped.
    pub fn list(&self, entry: OpenRoomEntry) -> OpenRoomListing {
        let id = self.inner.next.fetch_add(1, Ordering::Relaxed);
        lock(&self.inner.rooms).insert(id, entry);
        OpenRoomListing {
            rooms: self.clone(),
            id,
        }
    }

    /// The listed rooms, oldest listing first, at most [`MAX_OPEN_LISTED`].
    pub fn entries(&self) -> Vec<OpenRoomEntry> {
        lock(&self.inner.rooms)
            .values()
            .take(MAX_OPEN_LISTED)
            .cloned()
            .collect()
    }

    /// How many rooms are listed (tests, metrics).
    pub fn len(&self) -> usize {
        lock(&self.inner.rooms).len()
    }

    /// Whether no room is listed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A room's entry in the directory, removed when dropped.
#[derive(Debug)]
pub struct OpenRoomListing {
    rooms: OpenRooms,
    id: u64,
}

impl OpenRoomListing {
    /// The room changed (players came or went, a new host).
    pub fn update(&self, entry: OpenRoomEntry) {
        if let Some(e) = lock(&self.rooms.inner.rooms).get_mut(&self.id)
            && *e != entry
        {
            *e = entry;
        }
    }
}

impl Drop for OpenRoomListing {
    fn drop(&mut self) {
        lock(&self.rooms.inner.rooms).remove(&self.id);
    }
}

/// A room's entry: its code, its host's (already sanitised) name, its options and seats.
pub fn entry(code: &RoomCode, host: &str, options: RoomOptions, players: usize) -> OpenRoomEntry {
    OpenRoomEntry {
        code: code.to_string(),
        host: host.to_owned(),
        kind: options.kind,
        players: u8::try_from(players).unwrap_or(u8::MAX),
        seats: options.max_players,
    }
}
