//! The directory of open rooms: rooms whose host chose to list them ("l list room" in the
//! lobby), so that anyone can join from the versus menu's "Open rooms" without being told the
//! code. A room's code is its access control: a room is private (join by code only) unless its
//! host lists it, and a ranked room is never listed.
//!
//! A room keeps its entry through an [`OpenRoomListing`] while it is listed, in its lobby and
//! has a free seat; the entry goes when any of that stops being so, or when the room closes
//! (the listing is dropped with the room, even by a panic). Only this instance's rooms are
//! listed (in a cluster, a room on another instance is joined by its code). At most
//! [`MAX_OPEN_LISTED`] entries are sent in one list, fair per host network
//! ([`ClientAddr::network`]: IPv4 /24, IPv6 /56): round robin over the networks of the rooms'
//! hosts (each network's oldest room first, then each one's second...), at most
//! [`MAX_OPEN_PER_NETWORK`] rooms of one network in a list, so that a crowd of lobbies from one
//! network never hides another host's room.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use minotty_domain::{AddressKey, ClientAddr, RoomCode};
use minotty_protocol::{OpenRoomEntry, RoomSettings};

use super::lock;

/// Entries sent in one list.
pub const MAX_OPEN_LISTED: usize = 50;
/// Entries of one host network (IPv4 /24, IPv6 /56) in one list.
pub const MAX_OPEN_PER_NETWORK: usize = 5;

/// Every listed room of this instance, by listing order.
#[derive(Clone, Debug, Default)]
pub struct OpenRooms {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    rooms: Mutex<BTreeMap<u64, Listed>>,
    next: AtomicU64,
}

/// A listed room and its host's network (`None`: a host of unknown address, who share one).
#[derive(Debug, PartialEq)]
struct Listed {
    entry: OpenRoomEntry,
    network: Option<AddressKey>,
}

impl Listed {
    fn new(entry: OpenRoomEntry, host: Option<ClientAddr>) -> Listed {
        Listed {
            entry,
            network: host.map(ClientAddr::network),
        }
    }
}

impl OpenRooms {
    /// Lists a room as it is now, hosted from `host`; unlisted when the returned listing is
    /// dropped.
    pub fn list(&self, entry: OpenRoomEntry, host: Option<ClientAddr>) -> OpenRoomListing {
        let id = self.inner.next.fetch_add(1, Ordering::Relaxed);
        lock(&self.inner.rooms).insert(id, Listed::new(entry, host));
        OpenRoomListing {
            rooms: self.clone(),
            id,
        }
    }

    /// The listed rooms, at most [`MAX_OPEN_LISTED`]: round robin over the hosts' networks in
    /// the order of each one's oldest listing, at most [`MAX_OPEN_PER_NETWORK`] of each.
    pub fn entries(&self) -> Vec<OpenRoomEntry> {
        let rooms = lock(&self.inner.rooms);
        let mut networks: Vec<Vec<&OpenRoomEntry>> = Vec::new();
        let mut index: HashMap<Option<AddressKey>, usize> = HashMap::new();
        for listed in rooms.values() {
            let i = *index.entry(listed.network).or_insert_with(|| {
                networks.push(Vec::new());
                networks.len() - 1
            });
            if let Some(rooms) = networks.get_mut(i)
                && rooms.len() < MAX_OPEN_PER_NETWORK
            {
                rooms.push(&listed.entry);
            }
        }
        let mut out = Vec::with_capacity(MAX_OPEN_LISTED.min(rooms.len()));
        for round in 0..MAX_OPEN_PER_NETWORK {
            for network in &networks {
                if out.len() >= MAX_OPEN_LISTED {
                    return out;
                }
                if let Some(&entry) = network.get(round) {
                    out.push(entry.clone());
                }
            }
        }
        out
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
    /// The room changed (players came or went, a new host, hosting from `host`).
    pub fn update(&self, entry: OpenRoomEntry, host: Option<ClientAddr>) {
        let listed = Listed::new(entry, host);
        if let Some(e) = lock(&self.rooms.inner.rooms).get_mut(&self.id)
            && *e != listed
        {
            *e = listed;
        }
    }
}

impl Drop for OpenRoomListing {
    fn drop(&mut self) {
        lock(&self.rooms.inner.rooms).remove(&self.id);
    }
}

/// A room's entry: its code, its host's (already sanitised) name, its options and seats.
pub fn entry(code: &RoomCode, host: &str, options: RoomSettings, players: usize) -> OpenRoomEntry {
    OpenRoomEntry {
        code: code.to_string(),
        host: host.to_owned(),
        kind: options.kind(),
        players: u8::try_from(players).unwrap_or(u8::MAX),
        seats: options.max_players(),
    }
}
