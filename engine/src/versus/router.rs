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
        }
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
            .filter(|&p| p != from && self.seats[p].alive)
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

    /// Records that `p` reached the goal (race): they take the best place still free. In a race
    /// the first to finish wins the match.
    pub fn finish(&mut self, p: usize) {
        if !self.is_alive(p) {
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
