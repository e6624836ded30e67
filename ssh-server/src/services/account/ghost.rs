//! [`Request::Ghost`](minotty_ui::Request::Ghost): the replay of a game to race as a ghost.
//! Who may race a game is who may watch it (`Request::Replay`): a leaderboard game by anyone,
//! any other only by its player. The recording must be a 40 lines or ultra game that the engine
//! plays back; a missing or unreadable replay is said plainly. Each answer reads at most one
//! best (an index lookup), one game record and one replay blob (at most `MAX_INPUTS` inputs,
//! refused by the reader otherwise), like a replay watched.

use minotty_domain::{GameId, Period, PlayerName, has_board};
use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::GhostWanted;
use minotty_store::{Board, StoreError, UnixMs};
use minotty_ui::Response;

use super::worker::Worker;

fn failed(message: impl Into<String>) -> Response {
    Response::GhostFailed {
        message: message.into(),
    }
}

fn mode_name(mode: ModeKind) -> &'static str {
    match mode {
        ModeKind::Sprint => "40 lines",
        _ => "ultra",
    }
}

impl Worker {
    pub(super) async fn ghost(
        &self,
        wanted: GhostWanted,
        now: UnixMs,
    ) -> Result<Response, StoreError> {
        let board_of = |mode: ModeKind, ruleset: RulesetId| {
            (matches!(mode, ModeKind::Sprint | ModeKind::Ultra) && has_board(mode, ruleset))
                .then(|| Board::new(mode, ruleset))
        };
        let id = match wanted {
            GhostWanted::Best { mode, ruleset } => {
                let Some(board) = board_of(mode, ruleset) else {
                    return Ok(failed("ghosts race only in 40 lines and ultra"));
                };
                let Some(account) = self.current() else {
                    return Ok(failed("register a player name to race your best"));
                };
                match self
                    .store
                    .rank_of(board, Period::AllTime, now, account.id)
                    .await?
                {
                    Some(entry) => entry.game,
                    None => {
                        return Ok(failed(format!(
                            "no {} best to race yet: finish one first",
                            mode_name(mode)
                        )));
                    }
                }
            }
            GhostWanted::Player {
                name,
                mode,
                ruleset,
            } => {
                let Some(board) = board_of(mode, ruleset) else {
                    return Ok(failed("ghosts race only in 40 lines and ultra"));
                };
                let Ok(name) = PlayerName::parse(&name) else {
                    return Ok(failed("no such player"));
                };
                let Some(player) = self.store.account_by_name(&name).await? else {
                    return Ok(failed("no such player"));
                };
                match self
                    .store
                    .rank_of(board, Period::AllTime, now, player.id)
                    .await?
                {
                    Some(entry) => entry.game,
                    None => {
                        return Ok(failed(format!(
                            "{} has no {} best",
                            player.name,
                            mode_name(mode)
                        )));
                    }
                }
            }
            GhostWanted::Game(game) => GameId(game),
        };
        let Some(record) = self.store.game(id).await? else {
            return Ok(failed("no such game"));
        };
        let mine = self.current().is_some_and(|a| a.id == record.player);
        if record.verdict != "ranked" && !mine {
            return Ok(failed("no such game"));
        }
        let replay = match self.store.replay(id).await {
            Ok(Some(replay)) => replay,
            Ok(None) => return Ok(failed("no such game")),
            Err(StoreError::Corrupt(why)) => {
                tracing::warn!(game = id.0, %why, "a ghost's replay does not read");
                return Ok(failed("that game's replay is damaged: no ghost"));
            }
            Err(e) => return Err(e),
        };
        if let Some(why) = minotty_ui::ghost_refusal(&replay) {
            return Ok(failed(why));
        }
        let player = self
            .store
            .account(record.player)
            .await?
            .map_or_else(|| "?".to_owned(), |a| a.name.to_string());
        Ok(Response::Ghost {
            game: id.0,
            player,
            replay: Box::new(replay),
        })
    }
}
