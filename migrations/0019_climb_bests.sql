-- The climb's leaderboard (`minotty_engine::versus::climb`): each registered player's highest
-- run of each UTC day (`day` = ms since the epoch / 86,400,000), so that a player adds at most
-- one row a day however many runs they play. The boards (all time, month, today) take each
-- player's highest row since the period's start. Plain SQL that PostgreSQL accepts as is.
CREATE TABLE climb_bests (
    player_id   BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    day         BIGINT NOT NULL,
    height      BIGINT NOT NULL,
    time_ms     BIGINT NOT NULL,
    achieved_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, day)
);
CREATE INDEX climb_bests_by_time ON climb_bests (achieved_at, height);
