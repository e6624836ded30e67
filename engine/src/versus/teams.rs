//! Teams: a room plays free-for-all (every other player is an opponent) or in 2-4 teams
//! (2v2, 3v3, 4v4, 2v2v2, 2v2v2v2, 3v1, ...: any split of up to 8 seats). The setting is the
//! number of teams ([`RoomSettings::teams`]); who is on which team is chosen in the lobby,
//! seat by seat: a newcomer joins the smallest team ([`smallest`]), a player picks another
//! ([`next_team`]), the host moves anyone, and a change of the setting deals the seats out
//! again ([`balanced`]). A match takes the seats' teams through [`assign`] (clamped: no team
//! past the setting, at least two teams with players), then the [`Router`] sends attacks
//! only to the other teams' players, a team is out when all its players are, and every
//! player of a team shares its place.
//!
//! Why a number and a pick per seat rather than an assignment in the settings: the seats
//! change while the host sets the room up (people join, leave, bots come), and a per-seat
//! pick follows them without the host re-doing a list; the settings stay one value to cycle
//! on the settings screen.
//!
//! [`RoomSettings::teams`]: super::RoomSettings::teams
//! [`Router`]: super::Router

/// The most teams a room can have (8 seats: four teams of two).
pub const MAX_TEAMS: u8 = 4;

/// A team's letter as players see it: A, B, C, D.
pub fn letter(team: u8) -> char {
    char::from(b'A' + team.min(MAX_TEAMS - 1))
}

/// The seats' teams for a match of `teams` teams (0: free-for-all), from each seat's pick:
/// a pick past the last team goes to the last team. `None` (play free-for-all, or refuse to
/// start) when teams are off or fewer than two teams have a player.
pub fn assign(picks: &[u8], teams: u8) -> Option<Vec<u8>> {
    if teams < 2 || picks.len() < 2 {
        return None;
    }
    let top = teams.min(MAX_TEAMS) - 1;
    let out: Vec<u8> = picks.iter().map(|&t| t.min(top)).collect();
    let first = out[0];
    out.iter().any(|&t| t != first).then_some(out)
}

/// Seats dealt out in turn (seat 0 to team A, seat 1 to B, ...): equal teams, or as near as
/// the seats allow. Empty when teams are off.
pub fn balanced(seats: usize, teams: u8) -> Vec<u8> {
    if teams < 2 {
        return Vec::new();
    }
    let teams = teams.min(MAX_TEAMS);
    (0..seats).map(|i| (i % usize::from(teams)) as u8).collect()
}

/// The team a newcomer joins: the one with the fewest players (ties: the first).
pub fn smallest(picks: &[u8], teams: u8) -> u8 {
    let teams = teams.clamp(1, MAX_TEAMS);
    (0..teams)
        .min_by_key(|&t| (picks.iter().filter(|&&p| p == t).count(), t))
        .unwrap_or(0)
}

/// The team after `team` (the last wraps round to A).
pub fn next_team(team: u8, teams: u8) -> u8 {
    let teams = teams.clamp(1, MAX_TEAMS);
    (team.min(teams - 1) + 1) % teams
}

#[cfg(test)]
mod tests;
