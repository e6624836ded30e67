//! The climb's leaderboard (`climb_bests`, migration 0019): a registered player's highest run
//! of each UTC day, kept as one row per player and day, so the table grows by at most one row
//! a day per player however many runs they play. A board of a period ranks each player by
//! their highest row since the period's start; ties share a rank and the earlier height is
//! listed first.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::leaderboard::MAX_PAGE;
use super::{Page, Period, PlayerId, PlayerName, Store, StoreError, UnixMs, from_db};

const DAY_MS: i64 = 86_400_000;

/// A run to keep, if it is the player's highest of its day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClimbRecord {
    pub player: PlayerId,
    pub height: u32,
    pub time_ms: u64,
    pub ended_at: UnixMs,
}

/// One line of a climb board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClimbEntry {
    pub rank: u64,
    pub player: PlayerId,
    pub name: PlayerName,
    pub height: u32,
    pub time_ms: u64,
    pub achieved_at: UnixMs,
}

/// Each player's highest row since `$1` (`best`), with its earliest time and the number of
/// players higher: a literal, so that statements stay constant.
macro_rules! climb_select {
    () => {
        "WITH best AS (SELECT player_id, MAX(height) AS height FROM climb_bests \
         WHERE achieved_at >= $1 GROUP BY player_id) \
         SELECT best.player_id, p.name, best.height, \
         (SELECT MIN(c.achieved_at) FROM climb_bests c WHERE c.player_id = best.player_id \
         AND c.height = best.height AND c.achieved_at >= $1) AS achieved_at, \
         (SELECT MIN(c.time_ms) FROM climb_bests c WHERE c.player_id = best.player_id \
         AND c.height = best.height AND c.achieved_at >= $1) AS time_ms, \
         (SELECT COUNT(*) FROM best b WHERE b.height > best.height) AS better \
         FROM best JOIN players p ON p.id = best.player_id"
    };
}

fn climb_entry(row: &AnyRow) -> Result<ClimbEntry, StoreError> {
    let better: i64 = row.try_get("better")?;
    Ok(ClimbEntry {
        rank: from_db::<u64>(better, "rank")? + 1,
        player: PlayerId(row.try_get("player_id")?),
        name: super::name_from_db(row.try_get("name")?)?,
        height: from_db(row.try_get("height")?, "height")?,
        time_ms: from_db(row.try_get("time_ms")?, "time")?,
        achieved_at: row.try_get("achieved_at")?,
    })
}

impl Store {
    /// Keeps `run` as its player's highest of its day, unless they climbed as high already
    /// that day. A run of height 0 is not kept.
    pub async fn record_climb(&self, run: ClimbRecord) -> Result<(), StoreError> {
        if run.height == 0 {
            return Ok(());
        }
        let time = i64::try_from(run.time_ms).unwrap_or(i64::MAX);
        sqlx::query(
            "INSERT INTO climb_bests (player_id, day, height, time_ms, achieved_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (player_id, day) DO UPDATE SET \
             height = excluded.height, time_ms = excluded.time_ms, \
             achieved_at = excluded.achieved_at WHERE excluded.height > climb_bests.height",
        )
        .bind(run.player.0)
        .bind(run.ended_at.div_euclid(DAY_MS))
        .bind(i64::from(run.height))
        .bind(time)
        .bind(run.ended_at)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// A page of the climb's board of `period` (as of `now`).
    pub async fn climb_board(
        &self,
        period: Period,
        now: UnixMs,
        page: Page,
    ) -> Result<Vec<ClimbEntry>, StoreError> {
        let rows = sqlx::query(concat!(
            climb_select!(),
            " ORDER BY best.height DESC, achieved_at, best.player_id LIMIT $2 OFFSET $3"
        ))
        .bind(period.start(now))
        .bind(i64::from(page.limit.min(MAX_PAGE)))
        .bind(i64::from(page.offset))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(climb_entry).collect()
    }

    /// The player's own line on the climb's board of `period`, if they are on it.
    pub async fn climb_rank_of(
        &self,
        player: PlayerId,
        period: Period,
        now: UnixMs,
    ) -> Result<Option<ClimbEntry>, StoreError> {
        let row = sqlx::query(concat!(climb_select!(), " WHERE best.player_id = $2"))
            .bind(period.start(now))
            .bind(player.0)
            .fetch_optional(&self.reader)
            .await?;
        row.as_ref().map(climb_entry).transpose()
    }

    /// How many players the climb's board of `period` has.
    pub async fn climb_board_size(&self, period: Period, now: UnixMs) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(DISTINCT player_id) FROM climb_bests WHERE achieved_at >= $1",
        )
        .bind(period.start(now))
        .fetch_one(&self.reader)
        .await?;
        from_db(n, "climb board size")
    }
}
