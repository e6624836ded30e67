//! What a registered player who dropped out of a match is told when they come back: that it
//! still runs without them, or how it ended (within [`NOTICE_WINDOW`], once).

use tokio::time::Instant;

use super::{Hub, NOTICE_WINDOW, lock};
use minotty_domain::{PlayerId, RoomCode};

/// A registered player who dropped out of a match: told the result when they come back.
#[derive(Clone, Debug)]
pub(super) struct Dropped {
    code: RoomCode,
    /// The result, once the match is over.
    result: Option<String>,
    /// They were out of the match (knocked out, forfeited) before they dropped.
    out: bool,
    at: Instant,
}

impl Hub {
    /// `out`: the player was out of the match already (knocked out, forfeited).
    pub(super) fn note_dropped(&self, player: PlayerId, code: &RoomCode, out: bool) {
        let now = Instant::now();
        let mut dropped = lock(&self.dropped);
        dropped.retain(|_, d| now.duration_since(d.at) < NOTICE_WINDOW);
        dropped.insert(
            player,
            Dropped {
                code: code.clone(),
                result: None,
                out,
                at: now,
            },
        );
    }

    pub(super) fn note_result(&self, player: PlayerId, code: &RoomCode, result: String) {
        if let Some(d) = lock(&self.dropped).get_mut(&player)
            && d.code == *code
        {
            d.result = Some(result);
            d.at = Instant::now();
        }
    }

    /// What to tell a player who comes back after dropping out of a match, once.
    pub fn notice_for(&self, player: PlayerId) -> Option<String> {
        let mut dropped = lock(&self.dropped);
        let d = dropped.get(&player)?;
        if d.at.elapsed() >= NOTICE_WINDOW {
            dropped.remove(&player);
            return None;
        }
        match &d.result {
            Some(result) => {
                let result = result.clone();
                dropped.remove(&player);
                Some(result)
            }
            None if d.out => Some(format!(
                "Your match in room {} is still running; you were out of it before you left.",
                d.code
            )),
            None => Some(format!(
                "Your match in room {} is still running without you; leaving it counts as a loss.",
                d.code
            )),
        }
    }
}
