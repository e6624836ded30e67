//! A player's recent versus matches as their profile lists them: one line per match from their
//! own seat (place, opponent, rating change), read without the replays.

use minotty_engine::versus::MatchKind;
use sqlx::Row;

use super::rows::int;
use super::{MatchId, PlayerId, Store, StoreError, UnixMs};

/// One match from one player's seat.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchLine {
    pub id: MatchId,
    pub kind: MatchKind,
    pub ranked: bool,
    pub ended_at: UnixMs,
    /// 1 = won.
    pub place: u32,
    /// Seats in the match.
    pub seats: u32,
    pub forfeited: bool,
    /// The best placed other seat's name (the winner, or the runner-up when the player won);
    /// `None` when the player was alone.
    pub opponent: Option<String>,
    /// Ranked: the rating before and after.
    pub rating: Option<(f64, f64)>,
}

impl Store {
    /// `player`'s latest matches, newest first.
    pub async fn match_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<MatchLine>, StoreError> {
        self.player_rows(
            "SELECT m.id, m.kind, CAST(m.ranked AS BIGINT) AS ranked, m.ended_at, \
             CAST(me.place AS BIGINT) AS place, CAST(me.forfeited AS BIGINT) AS forfeited, \
             me.rating_before, me.rating_after, \
             (SELECT COUNT(*) FROM match_players o WHERE o.match_id = m.id) AS seats, \
             (SELECT o.name FROM match_players o WHERE o.match_id = m.id AND o.seat <> me.seat \
              ORDER BY o.place, o.seat LIMIT 1) AS opponent \
             FROM match_players me JOIN matches m ON m.id = me.match_id \
             WHERE me.player_id = $1 \
             ORDER BY m.ended_at DESC, m.id DESC LIMIT $2",
            player,
            limit,
            |row| {
                let kind: String = row.try_get("kind")?;
                let kind = match kind.as_str() {
                    "battle" => MatchKind::Battle,
                    "race" => MatchKind::Race,
                    other => return Err(StoreError::Corrupt(format!("match kind {other:?}"))),
                };
                let before: Option<f64> = row.try_get("rating_before")?;
                let after: Option<f64> = row.try_get("rating_after")?;
                Ok(MatchLine {
                    id: MatchId(int(row, "id")?),
                    kind,
                    ranked: int::<i64>(row, "ranked")? != 0,
                    ended_at: int(row, "ended_at")?,
                    place: int(row, "place")?,
                    seats: int(row, "seats")?,
                    forfeited: int::<i64>(row, "forfeited")? != 0,
                    opponent: row.try_get("opponent")?,
                    rating: before.zip(after),
                })
            },
        )
        .await
    }
}
