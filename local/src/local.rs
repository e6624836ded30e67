//! What `minotty play` answers the App without a server: the player's own games as
//! leaderboards (one scoreboard per board, from the save file), the profile, replays and
//! settings. The App asks exactly as it asks a server (`Identity::Local`); accounts and versus
//! are answered with `Response::Offline`.

use minotty_domain::{Verdict, has_board, home_ruleset, judge, profile_boards};
use minotty_engine::puzzle::STAGE_COUNT;
use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::{
    BoardId, BoardPeriod, BoardRow, GameRecorded, GhostWanted, Identity, LeaderboardPage,
    PAGE_ROWS, Profile, ProfileBest, SnapshotEntry,
};
use minotty_ui::Settings;
use minotty_ui::boards::{self, Figures};
use minotty_ui::{Request, Response};

use super::save::{LocalGame, SaveFile, board_bests, to_hex};

/// Recent games on the profile.
const RECENT_GAMES: usize = 10;

/// The local player and their save.
#[derive(Debug)]
pub struct Local {
    save: SaveFile,
    name: String,
}

impl Local {
    pub fn new(save: SaveFile, name: String) -> Local {
        Local { save, name }
    }

    pub fn identity(&self) -> Identity {
        Identity::Local {
            name: self.name.clone(),
        }
    }

    pub fn save(&self) -> &SaveFile {
        &self.save
    }

    /// What went wrong with the save file, once.
    pub fn take_problem(&mut self) -> Option<String> {
        self.save.problem.take()
    }

    /// Stores `settings` and writes the save; the error, if any, as the player reads it.
    pub fn save_settings(&mut self, settings: &Settings) -> Result<(), String> {
        self.save.set_settings(settings);
        self.save
            .write()
            .map_err(|e| format!("your settings could not be saved: {e}"))
    }

    /// The answer to one request (`None`: nothing to say).
    pub fn answer(&mut self, request: Request, now: i64) -> Option<Response> {
        Some(match request {
            Request::SaveSettings(settings) => match self.save_settings(&settings) {
                Ok(()) => return None,
                Err(message) => Response::Error { message },
            },
            Request::Leaderboard {
                board: BoardId::Solo(mode),
                ruleset,
                period,
                offset,
            } => Response::Leaderboard(self.page(mode, ruleset, period, offset, now)),
            Request::Profile => Response::Profile(self.profile()),
            Request::Replay { game } => match self.game(game).and_then(LocalGame::replay) {
                Some(replay) => Response::Replay {
                    game,
                    player: self.name.clone(),
                    replay: Box::new(replay),
                },
                None => Response::Error {
                    message: "that game is no longer kept".into(),
                },
            },
            Request::Ghost(wanted) => self.ghost(wanted, now),
            Request::SaveSnapshot { label, snapshot } => {
                let label = minotty_domain::snapshot_label(&label);
                self.save.add_snapshot(
                    label.clone(),
                    &snapshot,
                    now,
                    minotty_domain::MAX_SNAPSHOTS,
                );
                match self.save.write() {
                    Ok(()) => Response::SnapshotSaved { label },
                    Err(e) => Response::SnapshotFailed {
                        message: format!("the snapshot could not be saved: {e}"),
                    },
                }
            }
            Request::ListSnapshots => Response::Snapshots(self.snapshots()),
            Request::PuzzleProgress => self.puzzle_progress(),
            Request::Bests => Response::Bests(
                self.profile()
                    .bests
                    .into_iter()
                    .filter_map(|b| {
                        Some(minotty_protocol::ModeBest {
                            mode: b.mode,
                            ruleset: b.ruleset,
                            best: b.best?,
                        })
                    })
                    .collect(),
            ),
            Request::PuzzleCleared { stage } => {
                let stage = stage.min(STAGE_COUNT);
                if stage > self.save.data.puzzle_cleared {
                    self.save.data.puzzle_cleared = stage;
                    if let Err(e) = self.save.write() {
                        return Some(Response::Error {
                            message: format!("your puzzle progress could not be saved: {e}"),
                        });
                    }
                }
                self.puzzle_progress()
            }
            Request::DeleteSnapshot { id } => {
                self.save.data.snapshots.retain(|s| s.id != id);
                match self.save.write() {
                    Ok(()) => Response::Snapshots(self.snapshots()),
                    Err(e) => Response::Error {
                        message: format!("the snapshot could not be deleted: {e}"),
                    },
                }
            }
            // The versus board, accounts, keys and versus: they need a server.
            _ => Response::Offline,
        })
    }

    /// Whether every puzzle stage was cleared (which unlocks Descent).
    pub fn puzzle_completed(&self) -> bool {
        self.save.data.puzzle_cleared >= STAGE_COUNT
    }

    fn puzzle_progress(&self) -> Response {
        let cleared = self.save.data.puzzle_cleared.min(STAGE_COUNT);
        Response::PuzzleProgress {
            cleared,
            completed: cleared >= STAGE_COUNT,
        }
    }

    /// The stored snapshots, newest first (one that no longer reads is left out).
    fn snapshots(&self) -> Vec<SnapshotEntry> {
        self.save
            .data
            .snapshots
            .iter()
            .rev()
            .filter_map(|s| {
                let snapshot = s.snapshot()?;
                Some(SnapshotEntry {
                    id: s.id,
                    label: s.label.clone(),
                    mode: snapshot.mode(),
                    created_at: s.created_at,
                    snapshot: Box::new(snapshot),
                })
            })
            .collect()
    }

    /// A ghost to race from the save file: the best on a board or a kept game. This computer
    /// keeps one player's games: a friend's best (asked for by another name) is not here.
    fn ghost(&self, wanted: GhostWanted, now: i64) -> Response {
        if let GhostWanted::Player { name, .. } = &wanted
            && !name.trim().eq_ignore_ascii_case(&self.name)
        {
            return Response::GhostFailed {
                message: "only your own bests are kept on this computer: race a friend's \
                          on a server"
                    .into(),
            };
        }
        let game = match wanted {
            GhostWanted::Best { mode, ruleset } | GhostWanted::Player { mode, ruleset, .. } => self
                .board_games(mode, ruleset, BoardPeriod::AllTime, now)
                .first()
                .copied(),
            GhostWanted::Game(id) => self.game(id),
        };
        let Some(game) = game else {
            return Response::GhostFailed {
                message: "no best kept on this computer to race yet: finish one first".into(),
            };
        };
        let Some(replay) = game.replay() else {
            return Response::GhostFailed {
                message: "that game's replay is damaged: no ghost".into(),
            };
        };
        if let Some(message) = minotty_ui::ghost_refusal(&replay) {
            return Response::GhostFailed { message };
        }
        Response::Ghost {
            game: game.id,
            player: self.name.clone(),
            replay: Box::new(replay),
        }
    }

    fn game(&self, id: i64) -> Option<&LocalGame> {
        self.save.data.games.iter().find(|g| g.id == id)
    }

    /// The games on a board in `period`, best first (key, then the earlier, then the lower id).
    fn board_games(
        &self,
        mode: ModeKind,
        ruleset: RulesetId,
        period: BoardPeriod,
        now: i64,
    ) -> Vec<&LocalGame> {
        let ruleset = boards::board_ruleset(BoardId::Solo(mode), ruleset);
        let since = boards::period(period).start(now);
        let mut games: Vec<&LocalGame> = self
            .save
            .data
            .games
            .iter()
            .filter(|g| {
                g.key.is_some()
                    && g.mode() == Some(mode)
                    && g.ruleset() == ruleset
                    && g.ended_at >= since
            })
            .collect();
        games.sort_by_key(|g| (g.key, g.ended_at, g.id));
        games
    }

    fn row(&self, mode: ModeKind, rank: usize, g: &LocalGame) -> BoardRow {
        BoardRow {
            rank: rank as u64,
            name: self.name.clone(),
            values: boards::solo_values(mode, Figures::from(&g.stats)),
            achieved_at: g.ended_at,
            game: Some(g.id),
        }
    }

    fn page(
        &self,
        mode: ModeKind,
        ruleset: RulesetId,
        period: BoardPeriod,
        offset: u32,
        now: i64,
    ) -> LeaderboardPage {
        let board = BoardId::Solo(mode);
        let games = self.board_games(mode, ruleset, period, now);
        let rows = games
            .iter()
            .enumerate()
            .skip(offset as usize)
            .take(PAGE_ROWS as usize)
            .map(|(i, g)| self.row(mode, i + 1, g))
            .collect();
        LeaderboardPage {
            board,
            ruleset: boards::board_ruleset(board, ruleset),
            period,
            offset,
            total: games.len() as u64,
            columns: boards::columns(board),
            rows,
            own: games.first().map(|g| self.row(mode, 1, g)),
        }
    }

    fn profile(&self) -> Profile {
        // Every mode's home board (standard; tetrs for descent), then the other rulesets'.
        let mut bests = Vec::new();
        for (mode, ruleset) in profile_boards() {
            let games = self.board_games(mode, ruleset, BoardPeriod::AllTime, 0);
            let best = games.first();
            if best.is_none() && ruleset != home_ruleset(mode) {
                continue;
            }
            bests.push(ProfileBest {
                mode,
                ruleset,
                best: best.map(|g| boards::result(mode, Figures::from(&g.stats))),
                rank: None,
                game: best.map(|g| g.id),
            });
        }
        let recent = self
            .save
            .data
            .games
            .iter()
            .rev()
            .filter_map(|g| {
                let mode = g.mode()?;
                Some(boards::recent_game(
                    g.id,
                    mode,
                    g.ruleset(),
                    g.ended_at,
                    &g.outcome,
                    &g.stats,
                ))
            })
            .take(RECENT_GAMES)
            .collect();
        Profile {
            name: self.name.clone(),
            bests,
            recent,
            // `minotty play` has no versus.
            matches: Vec::new(),
            rating: None,
            ranked: None,
            charts: self.charts(),
        }
    }

    /// The profile's charts from the save file's games (every board's best is kept there).
    fn charts(&self) -> minotty_protocol::ProfileCharts {
        let games = &self.save.data.games;
        let ranked: Vec<minotty_domain::RankedGame> = games
            .iter()
            .filter(|g| g.key.is_some())
            .filter_map(|g| {
                Some(minotty_domain::RankedGame {
                    mode: g.mode()?,
                    ruleset: g.ruleset(),
                    ended_at: g.ended_at,
                    stats: g.stats,
                })
            })
            .collect();
        let skip = games.len().saturating_sub(minotty_protocol::PPS_GAMES);
        let pace: Vec<minotty_domain::PaceGame> = games[skip..]
            .iter()
            .filter_map(|g| {
                Some(minotty_domain::PaceGame {
                    id: minotty_domain::GameId(g.id),
                    mode: g.mode()?,
                    pieces: g.stats.pieces,
                    time_ms: g.stats.time,
                })
            })
            .collect();
        minotty_ui::profile_charts::profile_charts(&ranked, &pace)
    }

    /// Keeps a finished game (judged by the same rules as the server's leaderboards) and says
    /// what it earned on the player's own scoreboard. A game that cleared no line is not kept.
    pub fn record(&mut self, game: minotty_ui::FinishedGame, now: i64) -> Response {
        let kind = game.kind;
        if game.stats.lines == 0 {
            return recorded(0, false, "not kept: no lines cleared".into());
        }
        let outcome = Some((game.reason, game.won));
        let (replay, stats) = (game.replay, game.stats);
        let (key, note) = match judge(&replay, &stats, outcome) {
            Verdict::Ranked { key } => (Some(key), None),
            Verdict::Unranked(why) => (None, Some(format!("not on your scoreboard: {why}"))),
            Verdict::Rejected(why) => (None, Some(format!("not on your scoreboard: {why}"))),
        };
        let id = self.save.add_game(LocalGame {
            id: 0,
            mode: kind.id().to_owned(),
            ruleset: replay.ruleset.id().to_owned(),
            ended_at: now,
            outcome: minotty_domain::outcome_text(outcome).to_owned(),
            stats,
            key,
            note: note.clone(),
            replay: to_hex(&replay.to_bytes()),
        });
        let written = self.save.write();
        let best = key.is_some() && board_bests(&self.save.data.games).contains(&id);
        let mut text = match (key, note) {
            (Some(_), _) => {
                let ruleset = replay.ruleset;
                let place = self
                    .board_games(kind, ruleset, BoardPeriod::AllTime, now)
                    .iter()
                    .position(|g| g.id == id)
                    .map_or(0, |i| i + 1);
                let board = if has_board(kind, ruleset) && ruleset != home_ruleset(kind) {
                    format!("{} ({})", kind.title(), ruleset.id())
                } else {
                    kind.title().to_owned()
                };
                format!("#{place} of your {board} games")
            }
            (None, note) => note.unwrap_or_default(),
        };
        if let Err(e) = written {
            text = format!("not saved to disk: {e}");
        } else if !self.save.persistent() {
            text.push_str(" (this run only)");
        }
        recorded(id, best, text)
    }
}

fn recorded(game: i64, personal_best: bool, note: String) -> Response {
    Response::GameRecorded(GameRecorded {
        game,
        personal_best,
        rank: None,
        note: Some(note),
        previous_best: None,
    })
}
