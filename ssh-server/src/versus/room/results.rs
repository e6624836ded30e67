//! A match's end: the placements, ranked rating changes and the results every member is
//! sent, then the match handed to the recorder with its replays.

use minotty_engine::Replay;
use minotty_engine::rating::{DEFAULT_TAU, Outcome, Rating};
use minotty_engine::versus::MatchKind;
use minotty_protocol::{MatchResult, ResultRow, RoomState};
use minotty_ui::Response;
use tokio::time::Instant;

use super::series::SERIES_PAUSE;
use super::{Room, verify};
use crate::versus::{MemberId, REPLAY_GRACE, unix_now};
use minotty_store::{MatchPlayer, NewMatch};

impl Room {
    pub(super) fn end_match(&mut self, now: Instant) {
        let ranked = self.ranked;
        let code = self.code.clone();
        // A result resting on another instance's reports changes ratings only once verified
        // (`store_match`).
        let remote = self.has_remote_player();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        if live.over {
            return;
        }
        live.over = true;
        live.ended_at = unix_now();
        let n = live.players.len();
        // Everyone gets a place (those still playing after the placed, by lines).
        let lines = live.lines();
        minotty_engine::versus::over::settle(&mut live.router, &lines);
        let ids: Vec<MemberId> = live.players.iter().map(|p| p.member.id).collect();
        let teams: Vec<u8> = (0..n).filter_map(|p| live.router.team(p)).collect();
        // With teams, the series counts the winning team's game.
        let game_winner = match live.router.has_teams() {
            true => live.router.winning_team().map(usize::from),
            false => (0..n).find(|&p| live.router.place(p) == Some(1)),
        };
        let mut series = self.count_game(ids, teams.clone(), game_winner);
        // A ranked series' leaver loses it (`minotty_domain::ranked`).
        if ranked && series.as_ref().is_some_and(|s| !s.over) {
            series = self.concede_if_left().or(series);
        }
        let Some(live) = self.live.as_mut() else {
            return;
        };
        // A series is rated once, at its end, by who won it.
        let rate_now = series.as_ref().is_none_or(|s| s.over);
        let won = |p: usize, router: &minotty_engine::versus::Router| match &series {
            Some(s) => s.winner == Some(p),
            None => router.place(p) == Some(1),
        };
        // A match with a bot is never rated (ranked rooms have no bots; this holds whatever).
        if ranked && rate_now && n == 2 && live.players.iter().all(|p| p.bot.is_none()) {
            let before: Vec<Rating> = live
                .players
                .iter()
                .map(|p| p.rating_before.unwrap_or_default())
                .collect();
            for p in 0..2 {
                let score = if won(p, &live.router) { 1.0 } else { 0.0 };
                let after = before[p].update(
                    &[Outcome {
                        opponent: before[1 - p],
                        score,
                    }],
                    DEFAULT_TAU,
                );
                live.players[p].rating = Some((before[p], after));
                if let Some(account) = &live.players[p].member.account
                    && !remote
                {
                    self.hub.set_rating(account.id, after);
                }
            }
        }
        let elapsed = live.elapsed_ms(now);
        let mut rows: Vec<ResultRow> = (0..n)
            .map(|p| {
                let pl = &live.players[p];
                let time_ms = if pl.progress.time_ms > 0 {
                    pl.progress.time_ms
                } else {
                    elapsed
                };
                let minutes = time_ms as f64 / 60_000.0;
                let attack_sent = match live.kind {
                    MatchKind::Battle => live.router.sent(p),
                    MatchKind::Race => pl.progress.attack_sent,
                };
                ResultRow {
                    seat: p,
                    name: pl.member.name.clone(),
                    place: live.router.place(p).unwrap_or(n as u8),
                    kos: live.router.kos(p),
                    attack_per_minute: if minutes > 0.0 {
                        f64::from(attack_sent) / minutes
                    } else {
                        0.0
                    },
                    pieces_per_second: if time_ms > 0 {
                        f64::from(pl.progress.pieces) * 1000.0 / time_ms as f64
                    } else {
                        0.0
                    },
                    lines: pl.progress.lines,
                    attack_sent,
                    garbage_received: live.router.received(p),
                    forfeited: pl.forfeited,
                    rating: pl.rating.map(|(b, a)| (b.rating, a.rating)),
                    time_ms,
                    pieces: pl.progress.pieces,
                }
            })
            .collect();
        rows.sort_by_key(|r| (r.place, r.seat));
        let winner = match live.router.winning_team() {
            Some(t) => format!("team {}", minotty_engine::versus::teams::letter(t)),
            None => rows.first().map(|r| r.name.clone()).unwrap_or_default(),
        };
        for p in 0..n {
            let pl = &live.players[p];
            if pl.disconnected
                && let Some(account) = &pl.member.account
            {
                let place = live.router.place(p).unwrap_or(n as u8);
                // Out of it before leaving (knocked out), it was no early leave.
                let early = if pl.forfeited {
                    " (left early: a loss)"
                } else {
                    ""
                };
                let mut message = format!(
                    "Your match in room {code} ended while you were away: {winner} won; you \
                     placed {place} of {n}{early}."
                );
                if let Some((b, a)) = pl.rating {
                    message.push_str(&format!(" Rating {:.0} -> {:.0}.", b.rating, a.rating));
                }
                self.hub.note_result(account.id, &code, message);
            }
        }
        let result = |you| MatchResult {
            kind: live.kind,
            rows: rows.clone(),
            you,
            ranked,
            series: series.clone(),
            teams: teams.clone(),
        };
        for (p, pl) in live.players.iter().enumerate() {
            if !pl.left {
                pl.member.send(Response::MatchOver(result(Some(p))));
            }
        }
        for s in &self.spectators {
            s.send(Response::MatchOver(result(None)));
        }
        live.dirty = true;
        live.everyone = true;
        live.record_due = Some(now + REPLAY_GRACE);
        tracing::info!(room = %code, %winner, "match over");
        self.state = RoomState::Results;
        if rate_now {
            self.release_claims();
        } else if ranked {
            // The claims stay with the series; its next game starts by itself.
            self.next_game = Some(now + SERIES_PAUSE);
            self.series_pause = Some(self.hub.series_pause());
        }
        // A rematch in a ranked room starts from the new ratings.
        let rated: Vec<(MemberId, Rating)> = self
            .live
            .as_ref()
            .map(|l| {
                l.players
                    .iter()
                    .filter_map(|p| p.rating.map(|(_, a)| (p.member.id, a)))
                    .collect()
            })
            .unwrap_or_default();
        for (id, after) in rated {
            if let Some(i) = self.seat_of(id) {
                self.seats[i].rating = Some(after);
            }
        }
        self.flush_opponents(now);
        // Players who left during the match leave their seats now.
        self.seats.retain(|s| s.connected);
        self.fix_host();
        self.broadcast_view();
        if self.replays_complete() {
            self.store_match();
        }
    }

    /// Hands the match to the recorder (once).
    pub(super) fn store_match(&mut self) {
        let remote = self.has_remote_player();
        let Some(live) = self.live.as_mut() else {
            return;
        };
        live.record_due = None;
        if live.recorded || !live.over {
            return;
        }
        live.recorded = true;
        let rated = self.ranked
            && live
                .players
                .iter()
                .all(|p| p.rating.is_some() && p.bot.is_none());
        if rated && remote {
            match verify::verify_ranked(live) {
                Ok(()) => {
                    for pl in &live.players {
                        if let (Some(account), Some((_, after))) = (&pl.member.account, pl.rating) {
                            self.hub.set_rating(account.id, after);
                        }
                    }
                }
                Err(why) => {
                    tracing::warn!(
                        room = %self.code,
                        %why,
                        "a ranked result from another instance did not verify: not rated"
                    );
                    for pl in &mut live.players {
                        pl.rating = None;
                        if !pl.disconnected {
                            pl.member.send(Response::Notice {
                                message: "The match's result could not be verified: it is \
                                          not rated."
                                    .into(),
                            });
                        }
                    }
                }
            }
        }
        let n = live.players.len() as u32;
        let players = live
            .players
            .iter()
            .enumerate()
            .map(|(p, pl)| MatchPlayer {
                seat: p as u32,
                player: pl.member.account.as_ref().map(|a| a.id),
                name: pl.member.name.clone(),
                place: live.router.place(p).map_or(n, u32::from),
                kos: live.router.kos(p),
                forfeited: pl.forfeited,
                lines: pl.progress.lines,
                pieces: pl.progress.pieces,
                attack_sent: match live.kind {
                    MatchKind::Battle => live.router.sent(p),
                    MatchKind::Race => pl.progress.attack_sent,
                },
                garbage_received: live.router.received(p),
                time_ms: pl.progress.time_ms,
                rating: pl.rating,
                replay: pl.replay.as_ref().map(Replay::to_bytes),
                bot: pl.bot.as_ref().map(|b| b.kind.clone()),
                // Checked by the recorder, off the room's task.
                replay_check: None,
            })
            .collect();
        self.hub.record(NewMatch {
            kind: live.kind,
            ranked: self.ranked
                && live
                    .players
                    .iter()
                    .all(|p| p.rating.is_some() && p.bot.is_none()),
            room: self.code.to_string(),
            seed: live.seed,
            started_at: live.started_at,
            ended_at: live.ended_at,
            players,
            // The settings the match was played under (they cannot change during a match),
            // for the replay viewer.
            settings: serde_json::to_string(&self.options).ok(),
        });
    }
}
