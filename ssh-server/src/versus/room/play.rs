//! A match in play: its start, the players' reports routed (attacks to garbage), replays.

use minotty_engine::versus::over::{self, Decisive};
use minotty_engine::versus::{MatchKind, Router, Targeting, badge_attack};
use minotty_protocol::{BoardSnapshot, MatchStart, Progress, Report, RoomLimit, RoomState};
use minotty_ui::Response;
use tokio::time::Instant;

use super::{Live, Player, Room};
use crate::versus::{COUNTDOWN, MemberId, unix_now};

impl Room {
    pub(super) fn start_match(&mut self, now: Instant) {
        if self.live.as_ref().is_some_and(|l| l.over) {
            self.store_match();
        }
        // A room of teams needs players on two teams (a ranked room never plays teams).
        let Some(teams) = self.match_teams() else {
            for s in &self.seats {
                s.member.send(Response::Notice {
                    message: "Everyone is on one team: put players on two teams at least \
                              (g changes your team)."
                        .into(),
                });
            }
            self.broadcast_view();
            return;
        };
        if self.ranked && !self.claim_ranked() {
            self.broadcast_view();
            return;
        }
        self.next_game = None;
        self.series_pause = None;
        let seed = self.hub.seed();
        let kind = self.options.kind();
        let targeting: Vec<Targeting> = self.seats.iter().map(|s| s.targeting).collect();
        let go = now + COUNTDOWN;
        let deadline = match self.options.limit() {
            RoomLimit::Seconds(s) if kind == MatchKind::Battle => {
                Some(go + std::time::Duration::from_secs(u64::from(s)))
            }
            _ => None,
        };
        let remote = self.seats.iter().any(|s| self.is_remote(s.member.id));
        let players = self
            .seats
            .iter_mut()
            .map(|s| {
                // Bots are always ready for the next one.
                s.ready = s.bot.is_some();
                Player {
                    member: s.member.clone(),
                    bot: s.bot.clone(),
                    board: BoardSnapshot {
                        rows: vec![[0; 10]; 20],
                    },
                    progress: Progress::default(),
                    forfeited: false,
                    disconnected: false,
                    left: false,
                    changed: false,
                    replay: None,
                    target: None,
                    rating: None,
                    rating_before: s.rating,
                }
            })
            .collect();
        self.live = Some(Live {
            kind,
            seed,
            router: Router::new(kind, &targeting, seed).with_teams(&teams),
            go,
            started_at: unix_now(),
            ended_at: 0,
            deadline,
            players,
            dirty: false,
            everyone: false,
            next_flush: now,
            over: false,
            record_due: None,
            recorded: false,
            remote,
        });
        self.state = RoomState::Playing;
        tracing::info!(room = %self.code, players = self.seats.len(), ?kind, "match starts");
        // A ranked series' player who left between two games is out of this one at once.
        let gone: Vec<usize> = (0..self.seats.len())
            .filter(|&i| !self.seats[i].connected)
            .collect();
        if let Some(live) = self.live.as_mut() {
            for &p in &gone {
                let player = &mut live.players[p];
                (player.left, player.forfeited, player.disconnected) = (true, true, true);
                live.router.knock_out(p);
            }
        }
        if let Some(live) = &self.live {
            for (i, s) in self.seats.iter().enumerate() {
                if s.connected {
                    s.member
                        .send(Response::MatchStart(self.match_start(live, Some(i), now)));
                }
            }
            for s in &self.spectators {
                s.send(Response::MatchStart(self.match_start(live, None, now)));
            }
        }
        self.broadcast_view();
        if !gone.is_empty() && self.live.as_ref().is_some_and(|l| l.router.is_over()) {
            self.end_match(now);
        }
    }

    pub(super) fn match_start(&self, live: &Live, you: Option<usize>, now: Instant) -> MatchStart {
        MatchStart {
            kind: live.kind,
            mode: self.options.mode(),
            seed: live.seed,
            players: live.players.iter().map(|p| p.member.name.clone()).collect(),
            you,
            countdown_ms: u64::try_from(live.go.saturating_duration_since(now).as_millis())
                .unwrap_or(0),
            ranked: self.ranked,
            teams: (0..live.players.len())
                .filter_map(|p| live.router.team(p))
                .collect(),
            game: *self.options.game(),
        }
    }

    pub(super) fn reports(&mut self, id: MemberId, reports: Vec<Report>, now: Instant) {
        let Some(live) = self.live.as_mut() else {
            return;
        };
        let Some(p) = live.index_of(id) else {
            return;
        };
        for report in reports {
            if let Report::Replay(replay) = report {
                live.players[p].replay = Some(*replay);
                continue;
            }
            // Once decided, only the replays that close the games are taken (the one sent with
            // the report that decided it too).
            if live.over || live.players[p].forfeited || live.router.is_over() {
                continue;
            }
            match report {
                Report::Attack { lines } => {
                    let views = live.views();
                    let at = live.elapsed_ms(now);
                    // KO badges held before this attack (the router counts the attack as the
                    // player's game made it, which their replay is held against).
                    let badges = if self.options.game().ko_badges() {
                        live.router.kos(p)
                    } else {
                        0
                    };
                    if let Some(to) = live.router.route(p, u32::from(lines), at, &views) {
                        let lines = badge_attack(lines, badges, live.players.len());
                        live.players[p].target = Some(to);
                        live.players[to]
                            .member
                            .send(Response::Garbage { lines, from: p });
                        live.dirty = true;
                        live.everyone = true;
                    }
                }
                Report::Board(mut board) => {
                    board.rows.truncate(20);
                    live.players[p].board = board;
                    live.players[p].changed = true;
                    live.dirty = true;
                }
                Report::Progress(progress) => {
                    live.players[p].progress = progress;
                    live.players[p].changed = true;
                    live.dirty = true;
                    let lines = live.lines();
                    let what = Decisive::Progress {
                        lines: progress.lines,
                    };
                    over::decide(&mut live.router, &self.options, p, what, &lines);
                }
                Report::Finished { won, progress } => {
                    live.players[p].progress = progress;
                    live.dirty = true;
                    live.everyone = true;
                    let lines = live.lines();
                    let what = Decisive::Finished {
                        won,
                        lines: progress.lines,
                    };
                    over::decide(&mut live.router, &self.options, p, what, &lines);
                }
                Report::Forfeited { progress } => {
                    // Given up from the prompt: the same as leaving the match, but the player
                    // stays in the room for the results.
                    live.players[p].progress = progress;
                    live.players[p].forfeited = true;
                    live.dirty = true;
                    live.everyone = true;
                    let lines = live.lines();
                    over::decide(&mut live.router, &self.options, p, Decisive::Out, &lines);
                }
                Report::Replay(_) => {}
            }
        }
        let over = live.over;
        if !over && live.router.is_over() {
            self.end_match(now);
        } else if over && self.replays_complete() {
            self.store_match();
        }
    }

    pub(super) fn replays_complete(&self) -> bool {
        self.live.as_ref().is_some_and(|l| {
            l.players
                .iter()
                .all(|p| p.replay.is_some() || p.disconnected)
        })
    }
}
