-- Leaderboards: the best ranked game of each player per mode and period.
--
-- Why a table of bests instead of querying `games`: a leaderboard shows one entry per player,
-- the best by the mode's ranking. Computed from `games` that is a GROUP BY over every game of
-- the mode and period (a million rows and more), far from the 2 ms target. Instead the store
-- keeps, per (mode, period, period start, player), the player's best game, updated in the same
-- transaction as the game insert (an upsert that only replaces a worse entry). A game updates
-- three rows: all time (period_start 0), its UTC month and its UTC day. Past days and months
-- stay, so yesterday's board is still there.
--
-- `rank_key` folds the mode's ranking into one integer where lower is better (40 lines: time;
-- marathon, ultra: minus the score; master: minus the lines, then time; cheese: pieces; combo:
-- minus the longest combo), computed by `store::ranking`. Equal keys share a rank, listed by who
-- got there first (`achieved_at`).
--
-- The index `leaderboard_rank` holds the board in rank order: the top page is a range scan of
-- its first rows.
--
-- A player's rank is 1 + the number of entries with a smaller key. Counting index entries costs
-- time in proportion to the rank (about 2 ms per 25,000 on the benchmark machine), so the
-- store also keeps how many entries each key bucket holds (`leaderboard_counts`): a bucket is a
-- range of keys (`store::ranking::bucket_floor`: 256 ms of a 40-lines time, 2048 points of a
-- marathon score, ...), a few hundred to a few thousand per board. A rank is then the sum of the
-- counts of the better buckets plus a count of the entries in the player's own bucket.
CREATE TABLE leaderboard_best (
    mode         TEXT   NOT NULL,
    -- 'all', 'month' or 'day'; period_start is the period's first millisecond (UTC), 0 for 'all'.
    period       TEXT   NOT NULL CHECK (period IN ('all', 'month', 'day')),
    period_start BIGINT NOT NULL,
    player_id    BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    rank_key     BIGINT NOT NULL,
    -- The first key of rank_key's bucket.
    bucket       BIGINT NOT NULL,
    achieved_at  BIGINT NOT NULL,
    -- The game that set the entry. No foreign key: one would need another index on this table
    -- (cost on every insert) to delete games cheaply; the store writes both in one transaction,
    -- and deleting a player cascades here through player_id.
    game_id      BIGINT NOT NULL,
    -- That game's stats that boards show, copied so that reading a board never touches
    -- `games`, whose rows (replays included) fill most of the database file.
    time_ms      BIGINT NOT NULL,
    score        BIGINT NOT NULL,
    lines        BIGINT NOT NULL,
    pieces       BIGINT NOT NULL,
    max_combo    BIGINT NOT NULL,
    PRIMARY KEY (mode, period, period_start, player_id)
);
CREATE INDEX leaderboard_rank
    ON leaderboard_best (mode, period, period_start, rank_key, achieved_at, player_id, game_id);

-- How many entries of a board fall in each bucket, kept exact by the triggers below.
--
-- Portability: `WITHOUT ROWID` is SQLite's clustered table (the rows live in the primary key's
-- B-tree, so summing a range of buckets reads no second structure); PostgreSQL has no rowid,
-- drop the clause there.
CREATE TABLE leaderboard_counts (
    mode         TEXT   NOT NULL,
    period       TEXT   NOT NULL,
    period_start BIGINT NOT NULL,
    bucket       BIGINT NOT NULL,
    entries      BIGINT NOT NULL,
    PRIMARY KEY (mode, period, period_start, bucket)
) WITHOUT ROWID;

-- Portability: triggers are written in each database's own syntax (PostgreSQL: one PL/pgSQL
-- function for the three). They are triggers because they keep the counts exact inside the
-- statement that changes an entry: the store's upsert cannot see an entry's old bucket, and a
-- read before every write would cost a round trip per game.
CREATE TRIGGER leaderboard_counts_insert AFTER INSERT ON leaderboard_best
BEGIN
    INSERT INTO leaderboard_counts (mode, period, period_start, bucket, entries)
    VALUES (NEW.mode, NEW.period, NEW.period_start, NEW.bucket, 1)
    ON CONFLICT (mode, period, period_start, bucket) DO UPDATE SET entries = entries + 1;
END;

CREATE TRIGGER leaderboard_counts_update AFTER UPDATE OF bucket ON leaderboard_best
WHEN OLD.bucket <> NEW.bucket
BEGIN
    UPDATE leaderboard_counts SET entries = entries - 1
    WHERE mode = OLD.mode AND period = OLD.period AND period_start = OLD.period_start
        AND bucket = OLD.bucket;
    INSERT INTO leaderboard_counts (mode, period, period_start, bucket, entries)
    VALUES (NEW.mode, NEW.period, NEW.period_start, NEW.bucket, 1)
    ON CONFLICT (mode, period, period_start, bucket) DO UPDATE SET entries = entries + 1;
END;

CREATE TRIGGER leaderboard_counts_delete AFTER DELETE ON leaderboard_best
BEGIN
    UPDATE leaderboard_counts SET entries = entries - 1
    WHERE mode = OLD.mode AND period = OLD.period AND period_start = OLD.period_start
        AND bucket = OLD.bucket;
END;
