//! When a room's match ends and who placed where: the rules a room task applies to what its
//! players report, as pure functions over the match's [`Router`] (so a table of reports replays
//! to the same placements anywhere).
//!
//! The room feeds each player's decisive report to [`decide`] in the order it received them,
//! calls [`time_up`] when a battle's time limit passes and [`settle`] when it ends the match,
//! whatever ended it. `lines[q]` is player `q`'s lines cleared so far (the report's own
//! included).

use super::{MatchKind, RoomLimit, RoomSettings, Router};

/// A player's report that can end their game or the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decisive {
    /// Their lines so far (a battle with a lines goal ends when someone reaches it).
    Progress { lines: u32 },
    /// Their game ended: `won` when it reached the mode's goal, at `lines`.
    Finished { won: bool, lines: u32 },
    /// They are out: topped out elsewhere, forfeited, left or disconnected.
    Out,
}

/// Applies `p`'s report `what` to the match; returns whether the match is over. Once it is
/// (one report decided it), later ones change nothing, even in the same batch.
pub fn decide(
    router: &mut Router,
    settings: &RoomSettings,
    p: usize,
    what: Decisive,
    lines: &[u32],
) -> bool {
    if router.is_over() {
        return true;
    }
    match what {
        Decisive::Progress { lines: done } => {
            if let RoomLimit::Lines(n) = settings.limit()
                && settings.kind() == MatchKind::Battle
                && done >= n
            {
                win(router, p, lines);
            }
        }
        Decisive::Finished { won, lines: done } => {
            // A game's own word that it won counts only with the lines to show for it.
            if won && settings.goal().is_some_and(|g| done >= g) {
                win(router, p, lines);
            } else {
                router.knock_out(p);
            }
        }
        Decisive::Out => {
            router.knock_out(p);
        }
    }
    router.is_over()
}

/// `p` reached the goal: in a race they take the best free place and the match ends; in a
/// battle with a lines goal they win. The others follow by lines (ties: the lower seat).
fn win(router: &mut Router, p: usize, lines: &[u32]) {
    let mut rest: Vec<usize> = (0..router.players()).filter(|&q| q != p).collect();
    rest.sort_by_key(|&q| std::cmp::Reverse(lines.get(q).copied().unwrap_or(0)));
    match router.kind() {
        MatchKind::Race => {
            router.finish(p);
            router.close(&rest);
        }
        MatchKind::Battle => {
            rest.insert(0, p);
            router.close(&rest);
        }
    }
}

/// A battle's time is up: those still playing are placed by attack sent, then lines (ties: the
/// lower seat), after anyone already placed.
///
/// With teams, the teams still in are placed by their players' attack sent together, then
/// their lines together (ties: the team of the lower seat).
pub fn time_up(router: &mut Router, lines: &[u32]) {
    let n = router.players();
    let line = |p: usize| lines.get(p).copied().unwrap_or(0);
    let score = |p: usize| match router.team(p) {
        Some(team) => (0..n)
            .filter(|&q| router.team(q) == Some(team))
            .fold((0u64, 0u64), |(s, l), q| {
                (s + u64::from(router.sent(q)), l + u64::from(line(q)))
            }),
        None => (u64::from(router.sent(p)), u64::from(line(p))),
    };
    let mut ranking: Vec<usize> = (0..n).collect();
    ranking.sort_by_key(|&p| std::cmp::Reverse(score(p)));
    router.close(&ranking);
}

/// The match ends (decided, or ended by the room): anyone still unplaced is placed after the
/// placed, by lines (ties: the lower seat), so that every player has a place.
pub fn settle(router: &mut Router, lines: &[u32]) {
    let mut rest: Vec<usize> = (0..router.players()).collect();
    rest.sort_by_key(|&p| std::cmp::Reverse(lines.get(p).copied().unwrap_or(0)));
    router.close(&rest);
    for p in 0..router.players() {
        if router.place(p).is_none() {
            router.knock_out(p);
        }
    }
}

#[cfg(test)]
mod tests;
