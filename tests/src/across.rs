//! A match across two instances of a cluster: its room on one, a player from the other.

use std::net::SocketAddr;

use crate::versus::{create_room, guest, start_match};
use crate::{Connection, PtySession};

/// An unranked two-seat match across instances: guest `owner` makes a room on `a` (A), guest
/// `joiner` joins it from `b` (B), readies, and the owner starts it; both play. Returns both
/// players and the room's code.
pub async fn match_across(
    a: SocketAddr,
    b: SocketAddr,
    owner: &str,
    joiner: &str,
) -> ((Connection, PtySession), (Connection, PtySession), String) {
    let (co, mut o) = guest(a, owner)
        .await
        .unwrap_or_else(|e| panic!("{owner} on A: {e:#}"));
    let (cj, mut j) = guest(b, joiner)
        .await
        .unwrap_or_else(|e| panic!("{joiner} on B: {e:#}"));
    let code = create_room(&mut o, false, 2).await.expect("a room on A");
    start_match(&mut o, &mut j, &code)
        .await
        .unwrap_or_else(|e| panic!("{joiner} joins from B, {owner} starts, both play: {e:#}"));
    ((co, o), (cj, j), code)
}
