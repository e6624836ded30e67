//! Targeting, knock-outs and placements for a match of 2-8 players.

use crate::rng::SplitMix;
use crate::ruleset::Time;

/// Battles send garbage; races deal every player the same pieces and the first to the goal wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MatchKind {
    Battle,
    Race,
}

/// Whom a player's attacks go to when there is more than one opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Targeting {
    /// The opponent who has received the least garbage so far (the default: spreads attacks).
    #[default]
    Even,
    /// A random opponent, from the match's seeded generator.
    Random,
    /// Whoever attacked this player most recently (else as `Even`).
    Attackers,
    /// The opponent closest to topping out: highest stack plus queued garbage.
    KoHunting,
}

impl Targeting {
    pub const ALL: [Targeting; 4] = [
        Targeting::Even,
        Targeting::Random,
        Targeting::Attackers,
        Targeting::KoHunting,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Targeting::Even => "even",
            Targeting::Random => "random",
            Targeting::Attackers => "attackers",
            Targeting::KoHunting => "KO hunting",
        }
    }
}

/// What the router needs to know of a player's game when it chooses a KO-hunting target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PlayerView {
    pub stack_height: u32,
    pub pending_garbage: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Seat {
    alive: bool,
    targeting: Targeting,
    received: u32,
    sent: u32,
    kos: u32,
    /// The last player who sent garbage here, and when.
    last_attacker: Option<(usize, Time)>,
    /// 1 = winner; set when the player is out or the match ends.
    place: Option<u8>,
}

/// The bookkeeping of one match.
#[derive(Clone, Debug)]
pub struct Router {
    kind: MatchKind,
    seats: Vec<Seat>,
    rng: SplitMix,
    /// Each seat's team (`super::teams`); empty: free-for-all.
    teams: Vec<u8>,
}

impl Router {
    /// A router for `players` players (at least 1) with their targeting choices.
    pub fn new(kind: MatchKind, targeting: &[Targeting], seed: u32) -> Router {
        let seats = targeting
            .iter()
            .map(|&t| Seat {
                alive: true,
                targeting: t,
                received: 0,
                sent: 0,
                kos: 0,
                last_attacker: None,
                place: None,
            })
            .collect();
        Router {
            kind,
            seats,
            rng: SplitMix::new(seed, 2),
            teams: Vec::new(),
        }
    }

    /// This router with each seat's team (`teams[p]`, from [`super::teams::assign`]): attacks
    /// go only to the other teams, a team is out when all its players are and its players
    /// share its place. Teams that do not name every seat, or name only one team, are
    /// ignored (free-for-all).
    pub fn with_teams(mut self, teams: &[u8]) -> Router {
        let sides = teams
            .first()
            .is_some_and(|&t| teams.iter().any(|&u| u != t));
        if teams.len() == self.seats.len() && sides {
            self.teams = teams.to_vec();
        }
        self
    }

    /// `p`'s team; `None` in a free-for-all.
    pub fn team(&self, p: usize) -> Option<u8> {
        self.teams.get(p).copied()
    }

    pub fn has_teams(&self) -> bool {
        !self.teams.is_empty()
    }

    /// Whether `q` is an opponent of `p`: another player, on another team when there are teams.
    pub fn opposes(&self, p: usize, q: usize) -> bool {
        p != q && (self.teams.is_empty() || self.team(p) != self.team(q))
    }

    /// The seats of `team`.
    fn members(&self, team: u8) -> impl Iterator<Item = usize> + '_ {
        (0..self.seats.len()).filter(move |&p| self.teams.get(p) == Some(&team))
    }

    fn team_alive(&self, team: u8) -> bool {
        self.members(team).any(|p| self.seats[p].alive)
    }

    /// The teams with a player still in.
    fn teams_alive(&self) -> usize {
        let mut alive = [false; 256];
        for (p, s) in self.seats.iter().enumerate() {
            if s.alive {
                alive[usize::from(self.teams[p])] = true;
            }
        }
        alive.iter().filter(|&&a| a).count()
    }

    /// Gives every player of `team` without a place the place `place`.
    fn place_team(&mut self, team: u8, place: u8) {
        for p in 0..self.seats.len() {
            if self.teams.get(p) == Some(&team) && self.seats[p].place.is_none() {
                self.seats[p].place = Some(place);
            }
        }
    }

    /// The winning team, once the match is over with teams.
    pub fn winning_team(&self) -> Option<u8> {
        self.winner().and_then(|p| self.team(p))
    }

    pub fn kind(&self) -> MatchKind {
        self.kind
    }

    pub fn players(&self) -> usize {
        self.seats.len()
    }

    pub fn is_alive(&self, p: usize) -> bool {
        self.seats.get(p).is_some_and(|s| s.alive)
    }

    pub fn alive_count(&self) -> usize {
        self.seats.iter().filter(|s| s.alive).count()
    }

    pub fn set_targeting(&mut self, p: usize, targeting: Targeting) {
        if let Some(s) = self.seats.get_mut(p) {
            s.targeting = targeting;
        }
    }

    pub fn kos(&self, p: usize) -> u32 {
        self.seats.get(p).map_or(0, |s| s.kos)
    }

    pub fn received(&self, p: usize) -> u32 {
        self.seats.get(p).map_or(0, |s| s.received)
    }

    pub fn sent(&self, p: usize) -> u32 {
        self.seats.get(p).map_or(0, |s| s.sent)
    }

    /// A player's final place (1 = winner), once known.
    pub fn place(&self, p: usize) -> Option<u8> {
        self.seats.get(p).and_then(|s| s.place)
    }

    /// The winner, once the match is over.
    pub fn winner(&self) -> Option<usize> {
        self.seats.iter().position(|s| s.place == Some(1))
    }

    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.seats.iter().all(|s| s.place.is_some())
    }

    /// Chooses the target of `lines` sent by `from` at `time` and records it. Returns `None` in
    /// races, when `from` is out, or when nobody is left to receive.
    pub fn route(
        &mut self,
        from: usize,
        lines: u32,
        time: Time,
        views: &[PlayerView],
    ) -> Option<usize> {
        if self.kind == MatchKind::Race || lines == 0 || !self.is_alive(from) {
            return None;
        }
        let opponents: Vec<usize> = (0..self.seats.len())
            .filter(|&p| self.opposes(from, p) && self.seats[p].alive)
            .collect();
        let target = match self.seats[from].targeting {
            _ if opponents.len() <= 1 => opponents.first().copied(),
            Targeting::Even => self.fewest_received(&opponents),
            Targeting::Random => {
                let i = self.rng.below(opponents.len() as u32) as usize;
                opponents.get(i).copied()
            }
            Targeting::Attackers => self.seats[from]
                .last_attacker
                .map(|(p, _)| p)
                .filter(|p| opponents.contains(p))
                .or_else(|| self.fewest_received(&opponents)),
            Targeting::KoHunting => opponents.iter().copied().max_by_key(|&p| {
                let v = views.get(p).copied().unwrap_or_default();
                // Highest danger first; ties go to the lowest seat.
                (v.stack_height + v.pending_garbage, std::cmp::Reverse(p))
            }),
        }?;
        self.seats[from].sent += lines;
        let seat = &mut self.seats[target];
        seat.received += lines;
        seat.last_attacker = Some((from, time));
        Some(target)
    }

    fn fewest_received(&self, opponents: &[usize]) -> Option<usize> {
        opponents
            .iter()
            .copied()
            .min_by_key(|&p| (self.seats[p].received, p))
    }

    /// Records that `p` is out (topped out, forfeited or disconnected). The last player who
    /// attacked them gets the KO. Returns the KO's credit, if any. When one player is left in a
    /// battle, they win.
    pub fn knock_out(&mut self, p: usize) -> Option<usize> {
        if !self.is_alive(p) {
            return None;
        }
        if self.has_teams() {
            return self.knock_out_of_team(p);
        }
        let place = self.alive_count() as u8;
        let seat = &mut self.seats[p];
        seat.alive = false;
        seat.place = Some(place);
        let credit = seat.last_attacker.map(|(a, _)| a).filter(|&a| a != p);
        if let Some(a) = credit {
            self.seats[a].kos += 1;
        }
        if self.alive_count() == 1
            && let Some(last) = self.seats.iter_mut().find(|s| s.alive)
        {
            last.place = Some(1);
        }
        credit
    }

    /// [`Router::knock_out`] with teams: `p`'s team is out when its last player is, placed
    /// after the teams still in; when one team is left, its players win.
    fn knock_out_of_team(&mut self, p: usize) -> Option<usize> {
        let team = self.teams[p];
        let seat = &mut self.seats[p];
        seat.alive = false;
        let credit = seat.last_attacker.map(|(a, _)| a).filter(|&a| a != p);
        if let Some(a) = credit {
            self.seats[a].kos += 1;
        }
        let left = self.teams_alive();
        if !self.team_alive(team) {
            self.place_team(team, left as u8 + 1);
        }
        if left == 1
            && let Some(last) = (0..self.seats.len()).find(|&q| self.seats[q].alive)
        {
            self.place_team(self.teams[last], 1);
        }
        credit
    }

    /// The teams placed while still in (a race's finishers).
    fn teams_finished(&self) -> u8 {
        let mut done = [false; 256];
        for (p, s) in self.seats.iter().enumerate() {
            if s.place.is_some() && self.team_alive(self.teams[p]) {
                done[usize::from(self.teams[p])] = true;
            }
        }
        done.iter().filter(|&&d| d).count() as u8
    }

    /// Records that `p` reached the goal (race): they take the best place still free (with
    /// teams, their team does). In a race the first to finish wins the match.
    pub fn finish(&mut self, p: usize) {
        if !self.is_alive(p) {
            return;
        }
        if self.has_teams() {
            let team = self.teams[p];
            if self.members(team).all(|q| self.seats[q].place.is_none()) {
                let place = self.teams_finished() + 1;
                self.place_team(team, place);
            }
            return;
        }
        let taken = self
            .seats
            .iter()
            .filter(|s| s.place.is_some() && s.alive)
            .count();
        let seat = &mut self.seats[p];
        seat.place = Some(taken as u8 + 1);
    }

    /// Ends the match now (a race's winner finished, or time ran out): everyone still playing is
    /// placed after the finishers, in the order of `ranking` (best first).
    pub fn close(&mut self, ranking: &[usize]) {
        if self.has_teams() {
            // Teams in the order of their first player in `ranking`.
            let mut next = self.teams_finished() + 1;
            for &p in ranking {
                let Some(team) = self.team(p) else {
                    continue;
                };
                let unplaced = self.members(team).all(|q| self.seats[q].place.is_none());
                if self.team_alive(team) && unplaced {
                    self.place_team(team, next);
                    next += 1;
                }
            }
            return;
        }
        let mut next = self
            .seats
            .iter()
            .filter(|s| s.alive && s.place.is_some())
            .count() as u8
            + 1;
        for &p in ranking {
            if let Some(s) = self.seats.get_mut(p)
                && s.alive
                && s.place.is_none()
            {
                s.place = Some(next);
                next += 1;
            }
        }
    }
}
