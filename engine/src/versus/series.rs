//! A room's series and stock: how many games a match is (first to N, with an optional win-by
//! margin, never endless) and the extra lives a player has within one game. Pure functions of
//! the settings and the games' winners, so a table of results replays to the same score
//! anywhere.
//!
//! - **First to N** ([`SeriesSettings::first_to`], 1-7): the series is won by the first
//!   player with N game wins who also leads every other player by
//!   [`SeriesSettings::win_by`] (1-3; 1 is no margin). It can never be endless: it plays at
//!   most [`max_games`] games (`players * (N - 1) + 1`, enough for the plain first to N, plus
//!   `2 * (win_by - 1)` for the margin; at most 53); the game that reaches the cap ends it
//!   and the leader wins (a tie among leaders: the one of them who won a game last).
//! - **Stock** ([`SeriesSettings::stock`], 0-5): a player who tops out with a life left
//!   ([`top_out`]) comes back with a fresh board instead of being out. What carries over:
//!   the lines, attack sent and knock-outs so far and the piece sequence (the same seed);
//!   what does not: the stack and the garbage waiting for them.

use std::ops::RangeInclusive;

/// A room's series and stock settings (clamped where they are made, and on every serde
/// read). The default is one game, no margin, no stock: a room as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "Unchecked"))]
pub struct SeriesSettings {
    first_to: u8,
    win_by: u8,
    stock: u8,
}

#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct Unchecked {
    #[serde(default = "one")]
    first_to: u8,
    #[serde(default = "one")]
    win_by: u8,
    #[serde(default)]
    stock: u8,
}

#[cfg(feature = "serde")]
fn one() -> u8 {
    1
}

#[cfg(feature = "serde")]
impl From<Unchecked> for SeriesSettings {
    fn from(u: Unchecked) -> SeriesSettings {
        SeriesSettings::new(u.first_to, u.win_by, u.stock)
    }
}

impl Default for SeriesSettings {
    fn default() -> SeriesSettings {
        SeriesSettings::new(1, 1, 0)
    }
}

impl SeriesSettings {
    /// Game wins that win the series.
    pub const FIRST_TO: RangeInclusive<u8> = 1..=7;
    /// The lead over every other player the series' winner needs (1: none).
    pub const WIN_BY: RangeInclusive<u8> = 1..=3;
    /// Extra lives in one game.
    pub const STOCK: RangeInclusive<u8> = 0..=5;

    /// The settings asked for, each clamped to its bounds.
    pub fn new(first_to: u8, win_by: u8, stock: u8) -> SeriesSettings {
        let clamp = |v: u8, r: RangeInclusive<u8>| v.clamp(*r.start(), *r.end());
        SeriesSettings {
            first_to: clamp(first_to, Self::FIRST_TO),
            win_by: clamp(win_by, Self::WIN_BY),
            stock: clamp(stock, Self::STOCK),
        }
    }

    pub fn first_to(&self) -> u8 {
        self.first_to
    }

    pub fn win_by(&self) -> u8 {
        self.win_by
    }

    pub fn stock(&self) -> u8 {
        self.stock
    }

    pub fn is_default(&self) -> bool {
        *self == SeriesSettings::default()
    }

    /// Whether a match is more than one game.
    pub fn is_series(&self) -> bool {
        self.first_to > 1
    }
}

/// The most games a series of `players` may last (see the module's doc): at least 1, at most
/// 53 (eight players, first to 7, win by 3).
pub fn max_games(settings: &SeriesSettings, players: usize) -> u32 {
    let players = players.clamp(1, 8) as u32;
    players * (u32::from(settings.first_to) - 1) + 1 + 2 * (u32::from(settings.win_by) - 1)
}

/// A series in progress: each player's game wins, in seat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    wins: Vec<u8>,
    games: u32,
    /// The game each player last won (1-based), for the tie at the cap.
    last_win: Vec<u32>,
    over: bool,
    winner: Option<usize>,
}

impl Series {
    pub fn new(players: usize) -> Series {
        Series {
            wins: vec![0; players],
            games: 0,
            last_win: vec![0; players],
            over: false,
            winner: None,
        }
    }

    /// Counts a game won by `winner` (`None`: nobody, e.g. every player left); returns whether
    /// the series is over ([`Series::winner`] says who won it: `None` only when no game had a
    /// winner). A series over takes no more games.
    pub fn record(&mut self, settings: &SeriesSettings, winner: Option<usize>) -> bool {
        if self.over {
            return true;
        }
        self.games = self.games.saturating_add(1);
        if let Some(w) = winner
            && w < self.wins.len()
        {
            self.wins[w] = self.wins[w].saturating_add(1);
            self.last_win[w] = self.games;
        }
        let capped = self.games >= max_games(settings, self.wins.len());
        self.winner = self.decided(settings, capped);
        self.over = capped || self.winner.is_some();
        self.over
    }

    fn decided(&self, settings: &SeriesSettings, capped: bool) -> Option<usize> {
        let leader = self.leader()?;
        let top = self.wins[leader];
        let second = (0..self.wins.len())
            .filter(|&q| q != leader)
            .map(|q| self.wins[q])
            .max()
            .unwrap_or(0);
        let clear = top >= settings.first_to && top - second.min(top) >= settings.win_by;
        (clear || capped).then_some(leader)
    }

    /// The player with the most wins (a tie: the one who won last); `None` before any win.
    pub fn leader(&self) -> Option<usize> {
        (0..self.wins.len())
            .filter(|&p| self.wins[p] > 0)
            .max_by_key(|&p| (self.wins[p], self.last_win[p]))
    }

    /// Each player's game wins, in seat order.
    pub fn wins(&self) -> &[u8] {
        &self.wins
    }

    /// Games played so far.
    pub fn games(&self) -> u32 {
        self.games
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// `loser` left before the series' end (a ranked series: the leaver loses it): the series
    /// is over, won by the player with the most wins among the others (a tie: the one of them
    /// who won last; no game won: the first other seat). A series already over keeps its
    /// winner; a seat out of range concedes nothing. Returns the winner.
    pub fn concede(&mut self, loser: usize) -> Option<usize> {
        if self.over || loser >= self.wins.len() {
            return self.winner;
        }
        let others = (0..self.wins.len()).filter(|&p| p != loser);
        let best = others
            .clone()
            .max_by_key(|&p| (self.wins[p], self.last_win[p], usize::MAX - p));
        self.over = true;
        self.winner = best.or_else(|| others.clone().next());
        self.winner
    }
}

pub use crate::stock::TopOut;

/// The stock rule: a top-out with a life left is a respawn, otherwise the player is out (the
/// game applies it at every top-out of a mode with lives: `game/respawn.rs`).
pub fn top_out(settings: &SeriesSettings, used: u8) -> TopOut {
    crate::stock::top_out_with(settings.stock, used)
}

#[cfg(test)]
mod tests;
