-- PostgreSQL: ../0008_ruleset_boards.sql (boards keyed by ruleset too). PostgreSQL changes the
-- tables in place: a `ruleset` column ('standard' for every entry before), the primary keys
-- and the rank index rebuilt with it, and the trigger function matching on it.
ALTER TABLE leaderboard_best ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE leaderboard_best ALTER COLUMN ruleset DROP DEFAULT;
ALTER TABLE leaderboard_best DROP CONSTRAINT leaderboard_best_pkey;
ALTER TABLE leaderboard_best ADD PRIMARY KEY (mode, ruleset, period, period_start, player_id);
DROP INDEX leaderboard_rank;
CREATE INDEX leaderboard_rank ON leaderboard_best
    (mode, ruleset, period, period_start, rank_key, achieved_at, player_id, game_id);

ALTER TABLE leaderboard_counts ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE leaderboard_counts ALTER COLUMN ruleset DROP DEFAULT;
ALTER TABLE leaderboard_counts DROP CONSTRAINT leaderboard_counts_pkey;
ALTER TABLE leaderboard_counts ADD PRIMARY KEY (mode, ruleset, period, period_start, bucket);

CREATE OR REPLACE FUNCTION leaderboard_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE leaderboard_counts SET entries = entries - 1
        WHERE mode = OLD.mode AND ruleset = OLD.ruleset AND period = OLD.period
            AND period_start = OLD.period_start AND bucket = OLD.bucket;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO leaderboard_counts (mode, ruleset, period, period_start, bucket, entries)
        VALUES (NEW.mode, NEW.ruleset, NEW.period, NEW.period_start, NEW.bucket, 1)
        ON CONFLICT (mode, ruleset, period, period_start, bucket)
        DO UPDATE SET entries = leaderboard_counts.entries + 1;
    END IF;
    RETURN NULL;
END;
$$;
