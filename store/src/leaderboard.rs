//! Leaderboard queries: one entry per player (their best game), per mode, ruleset and period,
//! in the mode's order ([`super::rank_key`]).
//!
//! Ranks are competition ranks: entries with equal keys share a rank ("1, 2, 2, 4") and are
//! listed by who got there first. Pages read the `leaderboard_rank` index of
//! `leaderboard_best`; ranks add up the bucket counts of `leaderboard_counts` (see
//! `migrations/0004_leaderboards.sql`).

use minotty_domain::{bucket_floor, home_ruleset};
use minotty_engine::{ModeKind, RulesetId};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{GameId, Period, PlayerId, PlayerName, Store, StoreError, UnixMs, from_db};

/// A solo board: a mode under a ruleset. A bare [`ModeKind`] is its `standard` board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub mode: ModeKind,
    pub ruleset: RulesetId,
}

impl Board {
    pub fn new(mode: ModeKind, ruleset: RulesetId) -> Board {
        Board { mode, ruleset }
    }
}

/// A mode's home board: `standard`, or `tetrs` for descent ([`minotty_domain::home_ruleset`]).
impl From<ModeKind> for Board {
    fn from(mode: ModeKind) -> Board {
        Board::new(mode, home_ruleset(mode))
    }
}

/// The most entries one query returns.
pub const MAX_PAGE: u32 = 100;

/// Which entries of a board to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    /// Entries to skip (0 for the top).
    pub offset: u32,
    /// Entries to return, at most [`MAX_PAGE`].
    pub limit: u32,
}

impl Page {
    pub fn top(limit: u32) -> Page {
        Page { offset: 0, limit }
    }
}

/// One player's line on a board: their best game's rank and the stats that modes rank on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub rank: u64,
    pub player: PlayerId,
    pub name: PlayerName,
    pub game: GameId,
    pub achieved_at: UnixMs,
    pub rank_key: i64,
    pub time_ms: u64,
    pub score: u64,
    pub lines: u32,
    pub pieces: u32,
    pub max_combo: u32,
}

/// The columns that [`entry`] reads, a literal so that statements stay constant strings.
macro_rules! entry_columns {
    () => {
        "b.player_id, p.name, b.game_id, b.achieved_at, b.rank_key, b.time_ms, b.score, \
         b.lines, b.pieces, b.max_combo"
    };
}

impl Store {
    /// A page of `board` for the `period` that `now` falls in.
    pub async fn leaderboard(
        &self,
        board: impl Into<Board>,
        period: Period,
        now: UnixMs,
        page: Page,
    ) -> Result<Vec<Entry>, StoreError> {
        let board: Board = board.into();
        let start = period.start(now);
        let rows = sqlx::query(concat!(
            "SELECT ",
            entry_columns!(),
            " FROM leaderboard_best b \
             JOIN players p ON p.id = b.player_id \
             WHERE b.mode = $1 AND b.ruleset = $6 AND b.period = $2 AND b.period_start = $3 \
             ORDER BY b.rank_key, b.achieved_at, b.player_id \
             LIMIT $4 OFFSET $5"
        ))
        .bind(board.mode.id())
        .bind(period.as_db())
        .bind(start)
        .bind(i64::from(page.limit.min(MAX_PAGE)))
        .bind(i64::from(page.offset))
        .bind(board.ruleset.id())
        .fetch_all(&self.reader)
        .await?;
        let mut entries: Vec<Entry> = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let mut e = entry(row, 0)?;
            e.rank = match entries.last() {
                // Ties share the rank of the first entry with that key.
                Some(prev) if prev.rank_key == e.rank_key => prev.rank,
                // Every entry listed before this one ranks strictly better.
                Some(_) => u64::from(page.offset) + i as u64 + 1,
                // The first entry of a later page may tie with entries of earlier pages.
                None if page.offset > 0 => {
                    self.better_than(board, period, start, e.rank_key).await? + 1
                }
                None => 1,
            };
            entries.push(e);
        }
        Ok(entries)
    }

    /// `player`'s entry on `board` for the `period` that `now` falls in, with its rank,
    /// wherever it is; `None` when they have no ranked game there.
    pub async fn rank_of(
        &self,
        board: impl Into<Board>,
        period: Period,
        now: UnixMs,
        player: PlayerId,
    ) -> Result<Option<Entry>, StoreError> {
        let board: Board = board.into();
        let row = sqlx::query(concat!(
            "SELECT ",
            entry_columns!(),
            ", (SELECT CAST(COALESCE(SUM(c.entries), 0) AS BIGINT) FROM leaderboard_counts c \
                WHERE c.mode = b.mode AND c.ruleset = b.ruleset AND c.period = b.period \
                AND c.period_start = b.period_start AND c.bucket < b.bucket) \
              + (SELECT COUNT(*) FROM leaderboard_best o \
                WHERE o.mode = b.mode AND o.ruleset = b.ruleset AND o.period = b.period \
                AND o.period_start = b.period_start \
                AND o.rank_key >= b.bucket AND o.rank_key < b.rank_key) AS better \
             FROM leaderboard_best b \
             JOIN players p ON p.id = b.player_id \
             WHERE b.mode = $1 AND b.ruleset = $5 AND b.period = $2 AND b.period_start = $3 \
             AND b.player_id = $4"
        ))
        .bind(board.mode.id())
        .bind(period.as_db())
        .bind(period.start(now))
        .bind(player.0)
        .bind(board.ruleset.id())
        .fetch_optional(&self.reader)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let better: i64 = row.try_get("better")?;
        Ok(Some(entry(&row, from_db::<u64>(better, "rank")? + 1)?))
    }

    /// How many players are on `board` for the `period` that `now` falls in ("rank 1,234 of
    /// 50,000"): the sum of the board's bucket counts.
    pub async fn board_size(
        &self,
        board: impl Into<Board>,
        period: Period,
        now: UnixMs,
    ) -> Result<u64, StoreError> {
        let board: Board = board.into();
        let n: i64 = sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(entries), 0) AS BIGINT) FROM leaderboard_counts \
             WHERE mode = $1 AND ruleset = $4 AND period = $2 AND period_start = $3",
        )
        .bind(board.mode.id())
        .bind(period.as_db())
        .bind(period.start(now))
        .bind(board.ruleset.id())
        .fetch_one(&self.reader)
        .await?;
        from_db(n, "count")
    }

    /// How many entries of a board rank strictly better than `key`: the entries of the better
    /// buckets, then those of `key`'s bucket below it.
    async fn better_than(
        &self,
        board: Board,
        period: Period,
        start: UnixMs,
        key: i64,
    ) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT (SELECT CAST(COALESCE(SUM(entries), 0) AS BIGINT) FROM leaderboard_counts \
                WHERE mode = $1 AND ruleset = $6 AND period = $2 AND period_start = $3 \
                AND bucket < $5) \
              + (SELECT COUNT(*) FROM leaderboard_best \
                WHERE mode = $1 AND ruleset = $6 AND period = $2 AND period_start = $3 \
                AND rank_key >= $5 AND rank_key < $4)",
        )
        .bind(board.mode.id())
        .bind(period.as_db())
        .bind(start)
        .bind(key)
        .bind(bucket_floor(board.mode, key))
        .bind(board.ruleset.id())
        .fetch_one(&self.reader)
        .await?;
        from_db(n, "count")
    }
}

fn entry(row: &AnyRow, rank: u64) -> Result<Entry, StoreError> {
    let int = |name: &str| -> Result<i64, StoreError> { Ok(row.try_get::<i64, _>(name)?) };
    Ok(Entry {
        rank,
        player: PlayerId(int("player_id")?),
        name: super::name_from_db(row.try_get("name")?)?,
        game: GameId(int("game_id")?),
        achieved_at: int("achieved_at")?,
        rank_key: int("rank_key")?,
        time_ms: from_db(int("time_ms")?, "time_ms")?,
        score: from_db(int("score")?, "score")?,
        lines: from_db(int("lines")?, "lines")?,
        pieces: from_db(int("pieces")?, "pieces")?,
        max_combo: from_db(int("max_combo")?, "max_combo")?,
    })
}
