//! A stored match as its replay viewer opens it: the match's record and who sat in it, read
//! without the replays (who may watch it is decided on this), and a match found again by the
//! room and seed it was played under. The seats with their replays are `match_players`.

use minotty_engine::versus::MatchKind;
use sqlx::Row;

use super::rows::int;
use super::{MatchId, PlayerId, Store, StoreError, UnixMs};

/// A stored match's record, without its seats' replays.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredMatch {
    pub id: MatchId,
    pub kind: MatchKind,
    pub ranked: bool,
    pub room: String,
    pub seed: u32,
    pub started_at: UnixMs,
    pub ended_at: UnixMs,
    /// The accounts that had a seat (guests and bots have none), in seat order.
    pub players: Vec<PlayerId>,
    /// The room's settings as JSON, as the room stored them (`None` before migration 0017).
    pub settings: Option<String>,
}

pub(crate) fn kind_of(kind: &str) -> Result<MatchKind, StoreError> {
    match kind {
        "battle" => Ok(MatchKind::Battle),
        "race" => Ok(MatchKind::Race),
        other => Err(StoreError::Corrupt(format!("match kind {other:?}"))),
    }
}

impl Store {
    /// The record of match `id`, if there is one.
    pub async fn match_record(&self, id: MatchId) -> Result<Option<StoredMatch>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT kind, CAST(ranked AS BIGINT) AS ranked, room, seed, started_at, ended_at, \
             settings FROM matches WHERE id = $1",
        )
        .bind(id.0)
        .fetch_optional(&self.reader)
        .await?
        else {
            return Ok(None);
        };
        let kind: String = row.try_get("kind")?;
        let players: Vec<Option<i64>> = sqlx::query_scalar(
            "SELECT player_id FROM match_players WHERE match_id = $1 ORDER BY seat",
        )
        .bind(id.0)
        .fetch_all(&self.reader)
        .await?;
        Ok(Some(StoredMatch {
            id,
            kind: kind_of(&kind)?,
            ranked: int::<i64>(&row, "ranked")? != 0,
            room: row.try_get("room")?,
            seed: int(&row, "seed")?,
            started_at: int(&row, "started_at")?,
            ended_at: int(&row, "ended_at")?,
            players: players.into_iter().flatten().map(PlayerId).collect(),
            settings: row.try_get("settings")?,
        }))
    }

    /// The latest match played in room `room` on `seed`, if one is stored (the results screen
    /// asks for the match it shows by these: it has no id until the recorder stored it).
    pub async fn match_by_room_seed(
        &self,
        room: &str,
        seed: u32,
    ) -> Result<Option<MatchId>, StoreError> {
        let id: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM matches WHERE room = $1 AND seed = $2 ORDER BY id DESC LIMIT 1",
        )
        .bind(room)
        .bind(i64::from(seed))
        .fetch_optional(&self.reader)
        .await?;
        Ok(id.map(MatchId))
    }
}
