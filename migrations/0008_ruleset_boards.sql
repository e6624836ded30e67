-- Leaderboards per ruleset: 40 lines, marathon and ultra also have boards under `tui-tetris`
-- and `tetrs` (`RulesetId::id()`); every other board is `standard` only. A board is now
-- (mode, ruleset, period, period start); every entry stored before this migration is a
-- `standard` one (nothing else could rank).
--
-- SQLite cannot change a primary key in place, so both tables are rebuilt: a new table with
-- the `ruleset` column in its key, the rows copied, the old table dropped (with its index and
-- triggers) and the new one renamed. PostgreSQL: `ALTER TABLE ... ADD COLUMN ruleset TEXT NOT
-- NULL DEFAULT 'standard'`, then drop and re-add the primary key and the index, and change the
-- trigger function to match on ruleset too.

CREATE TABLE leaderboard_best_new (
    mode         TEXT   NOT NULL,
    -- 'standard', 'tui-tetris' or 'tetrs'.
    ruleset      TEXT   NOT NULL,
    period       TEXT   NOT NULL CHECK (period IN ('all', 'month', 'day')),
    period_start BIGINT NOT NULL,
    player_id    BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    rank_key     BIGINT NOT NULL,
    bucket       BIGINT NOT NULL,
    achieved_at  BIGINT NOT NULL,
    game_id      BIGINT NOT NULL,
    time_ms      BIGINT NOT NULL,
    score        BIGINT NOT NULL,
    lines        BIGINT NOT NULL,
    pieces       BIGINT NOT NULL,
    max_combo    BIGINT NOT NULL,
    PRIMARY KEY (mode, ruleset, period, period_start, player_id)
);
INSERT INTO leaderboard_best_new (mode, ruleset, period, period_start, player_id, rank_key,
    bucket, achieved_at, game_id, time_ms, score, lines, pieces, max_combo)
SELECT mode, 'standard', period, period_start, player_id, rank_key, bucket, achieved_at,
    game_id, time_ms, score, lines, pieces, max_combo
FROM leaderboard_best;
DROP TABLE leaderboard_best;
ALTER TABLE leaderboard_best_new RENAME TO leaderboard_best;
CREATE INDEX leaderboard_rank ON leaderboard_best
    (mode, ruleset, period, period_start, rank_key, achieved_at, player_id, game_id);

CREATE TABLE leaderboard_counts_new (
    mode         TEXT   NOT NULL,
    ruleset      TEXT   NOT NULL,
    period       TEXT   NOT NULL,
    period_start BIGINT NOT NULL,
    bucket       BIGINT NOT NULL,
    entries      BIGINT NOT NULL,
    PRIMARY KEY (mode, ruleset, period, period_start, bucket)
) WITHOUT ROWID;
INSERT INTO leaderboard_counts_new (mode, ruleset, period, period_start, bucket, entries)
SELECT mode, 'standard', period, period_start, bucket, entries FROM leaderboard_counts;
DROP TABLE leaderboard_counts;
ALTER TABLE leaderboard_counts_new RENAME TO leaderboard_counts;

-- The triggers of 0004, keyed by ruleset too (dropped with the old table).
CREATE TRIGGER leaderboard_counts_insert AFTER INSERT ON leaderboard_best
BEGIN
    INSERT INTO leaderboard_counts (mode, ruleset, period, period_start, bucket, entries)
    VALUES (NEW.mode, NEW.ruleset, NEW.period, NEW.period_start, NEW.bucket, 1)
    ON CONFLICT (mode, ruleset, period, period_start, bucket)
    DO UPDATE SET entries = entries + 1;
END;

CREATE TRIGGER leaderboard_counts_update AFTER UPDATE OF bucket ON leaderboard_best
WHEN OLD.bucket <> NEW.bucket
BEGIN
    UPDATE leaderboard_counts SET entries = entries - 1
    WHERE mode = OLD.mode AND ruleset = OLD.ruleset AND period = OLD.period
        AND period_start = OLD.period_start AND bucket = OLD.bucket;
    INSERT INTO leaderboard_counts (mode, ruleset, period, period_start, bucket, entries)
    VALUES (NEW.mode, NEW.ruleset, NEW.period, NEW.period_start, NEW.bucket, 1)
    ON CONFLICT (mode, ruleset, period, period_start, bucket)
    DO UPDATE SET entries = entries + 1;
END;

CREATE TRIGGER leaderboard_counts_delete AFTER DELETE ON leaderboard_best
BEGIN
    UPDATE leaderboard_counts SET entries = entries - 1
    WHERE mode = OLD.mode AND ruleset = OLD.ruleset AND period = OLD.period
        AND period_start = OLD.period_start AND bucket = OLD.bucket;
END;
