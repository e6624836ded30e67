-- PostgreSQL: ../0004_leaderboards.sql (the design is explained there). The counts are kept by
-- one PL/pgSQL trigger function instead of SQLite's three triggers.
--
-- Several instances write here at once: the function's upsert (INSERT ... ON CONFLICT DO
-- UPDATE) and decrement (UPDATE) each lock the one counts row they change until the
-- transaction ends, so concurrent games of one board serialize on that row and the counts stay
-- exact; two transactions that take two rows in opposite orders deadlock, PostgreSQL aborts one
-- (40P01) and the store retries it.
CREATE TABLE leaderboard_best (
    mode         TEXT   NOT NULL,
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
    PRIMARY KEY (mode, period, period_start, player_id)
);
CREATE INDEX leaderboard_rank
    ON leaderboard_best (mode, period, period_start, rank_key, achieved_at, player_id, game_id);

CREATE TABLE leaderboard_counts (
    mode         TEXT   NOT NULL,
    period       TEXT   NOT NULL,
    period_start BIGINT NOT NULL,
    bucket       BIGINT NOT NULL,
    entries      BIGINT NOT NULL,
    PRIMARY KEY (mode, period, period_start, bucket)
);

CREATE FUNCTION leaderboard_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE leaderboard_counts SET entries = entries - 1
        WHERE mode = OLD.mode AND period = OLD.period AND period_start = OLD.period_start
            AND bucket = OLD.bucket;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO leaderboard_counts (mode, period, period_start, bucket, entries)
        VALUES (NEW.mode, NEW.period, NEW.period_start, NEW.bucket, 1)
        ON CONFLICT (mode, period, period_start, bucket)
        DO UPDATE SET entries = leaderboard_counts.entries + 1;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER leaderboard_counts_insert AFTER INSERT ON leaderboard_best
    FOR EACH ROW EXECUTE FUNCTION leaderboard_counts_maintain();
CREATE TRIGGER leaderboard_counts_update AFTER UPDATE OF bucket ON leaderboard_best
    FOR EACH ROW WHEN (OLD.bucket <> NEW.bucket) EXECUTE FUNCTION leaderboard_counts_maintain();
CREATE TRIGGER leaderboard_counts_delete AFTER DELETE ON leaderboard_best
    FOR EACH ROW EXECUTE FUNCTION leaderboard_counts_maintain();
