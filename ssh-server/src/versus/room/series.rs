//! The host's settings changes in the lobby, and the series: games follow each other (each
//! started as a rematch is) until one player has won the series (`engine::versus::series`).

use minotty_engine::versus::{RoomSettings, Series};
use minotty_protocol::{RoomState, SeriesScore};
use minotty_ui::Response;
use tokio::time::Instant;

use super::Room;
use crate::versus::{MemberId, limits};

/// Between two games of a ranked series: the results are shown this long, then the next game
/// starts (sooner when both ask for it): a player cannot stall a series by waiting.
pub(super) const SERIES_PAUSE: std::time::Duration = std::time::Duration::from_secs(10);

impl Room {
    /// The host's new settings, if the room takes them: the host's, in the lobby or the
    /// results (not during a match), within the member's budget, seating everyone seated.
    /// Every ready resets (bots stay ready) and a series in progress starts over.
    pub(super) fn change_settings(&mut self, id: MemberId, settings: RoomSettings, now: Instant) {
        let Some(i) = self.seat_of(id) else {
            return;
        };
        let refusal = if self.ranked || self.host != Some(id) {
            Some("Only the host can change the room's settings.".to_owned())
        } else if self.state == RoomState::Playing {
            Some("The settings can change after the match.".to_owned())
        } else if !self.settings_budget_allows(id, now) {
            Some("Too many settings changes: wait a little.".to_owned())
        } else if usize::from(settings.max_players()) < self.seats.len() {
            Some(format!(
                "{} players are seated: the room cannot have fewer seats.",
                self.seats.len()
            ))
        } else {
            None
        };
        if let Some(message) = refusal {
            self.seats[i].member.send(Response::Notice { message });
            return;
        }
        if settings == self.options {
            return;
        }
        let dealt = settings.teams() != self.options.teams();
        self.options = settings;
        if dealt {
            self.deal_teams();
        }
        self.series = None;
        for s in &mut self.seats {
            s.ready = s.bot.is_some();
        }
        if self.state == RoomState::Results {
            self.state = RoomState::Lobby;
        }
        tracing::info!(room = %self.code, ?settings, "settings changed");
        self.broadcast_view();
    }

    /// Takes one change from `id`'s budget (made on their first change; the budgets kept are
    /// only those of seated members, at most the room's seats).
    fn settings_budget_allows(&mut self, id: MemberId, now: Instant) -> bool {
        let ms = u64::try_from(now.saturating_duration_since(self.opened).as_millis())
            .unwrap_or(u64::MAX);
        let seated: Vec<MemberId> = self.seats.iter().map(|s| s.member.id).collect();
        self.settings_budget.retain(|m, _| seated.contains(m));
        self.settings_budget
            .entry(id)
            .or_insert_with(|| limits::settings_changes(ms))
            .try_take(ms)
    }

    /// Counts the game just ended (won by `winner`, a seat of `players`, or with `teams`
    /// the winning team) towards the series, if the room plays one; returns its score, or
    /// `None` for a match of one game. A series belongs to its players and their teams:
    /// other players (someone left or joined) or other teams start a new one. With teams it
    /// counts each team's wins.
    pub(super) fn count_game(
        &mut self,
        players: Vec<MemberId>,
        teams: Vec<u8>,
        winner: Option<usize>,
    ) -> Option<SeriesScore> {
        let settings = *self.options.series();
        if !settings.is_series() {
            self.series = None;
            return None;
        }
        let fresh = !matches!(&self.series,
            Some((ids, t, s)) if *ids == players && *t == teams && !s.is_over());
        if fresh {
            let sides = if teams.is_empty() {
                players.len()
            } else {
                usize::from(self.options.teams().max(2))
            };
            self.series = Some((players.clone(), teams, Series::new(sides)));
        }
        let (_, _, series) = self.series.as_mut()?;
        series.record(&settings, winner);
        self.series_score()
    }

    /// A ranked series in progress whose game just ended with a player gone (left during
    /// it, or between two games and so out of this one at its start): the leaver concedes the
    /// series. The new score, or `None` when nobody left.
    pub(super) fn concede_if_left(&mut self) -> Option<SeriesScore> {
        let leaver = self.live.as_ref()?.players.iter().position(|p| p.left)?;
        let (_, teams, series) = self.series.as_mut()?;
        // With teams the leaver's team concedes.
        let side = teams.get(leaver).map_or(leaver, |&t| usize::from(t));
        series.concede(side);
        tracing::info!(room = %self.code, leaver, "a player left the ranked series: its loss");
        self.series_score()
    }

    /// Whether a ranked series is being played and not over.
    pub(super) fn series_in_progress(&self) -> bool {
        self.ranked && matches!(&self.series, Some((_, _, s)) if !s.is_over())
    }

    /// The next game of a ranked series, once its pause is over.
    pub(super) fn next_ranked_game(&mut self, now: Instant) {
        if self.next_game.is_some_and(|t| now >= t) {
            self.next_game = None;
            self.series_pause = None;
            if self.state != RoomState::Playing && self.series_in_progress() {
                self.start_match(now);
            }
        }
    }

    fn series_score(&self) -> Option<SeriesScore> {
        let settings = *self.options.series();
        let (_, _, series) = self.series.as_ref()?;
        Some(SeriesScore {
            wins: series.wins().to_vec(),
            games: series.games(),
            first_to: settings.first_to(),
            win_by: settings.win_by(),
            over: series.is_over(),
            winner: series.winner(),
        })
    }
}
