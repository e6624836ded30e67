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
-- The index `leaderboard_rank` holds the board in rank order and covers both queries: the top
-- page is a range scan of its first rows; a player's rank is one primary-key look-up plus a
-- count of the index entries with a smaller key.
CREATE TABLE leaderboard_best (
    mode         TEXT   NOT NULL,
    -- 'all', 'month' or 'day'; period_start is the period's first millisecond (UTC), 0 for 'all'.
    period       TEXT   NOT NULL CHECK (period IN ('all', 'month', 'day')),
    period_start BIGINT NOT NULL,
    player_id    BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    rank_key     BIGINT NOT NULL,
    achieved_at  BIGINT NOT NULL,
    -- The game that set the entry. No foreign key: one would need a fourth index on this table
    -- (cost on every insert) to delete games cheaply; the store writes both in one transaction,
    -- and deleting a player cascades here through player_id.
    game_id      BIGINT NOT NULL,
    PRIMARY KEY (mode, period, period_start, player_id)
);
CREATE INDEX leaderboard_rank
    ON leaderboard_best (mode, period, period_start, rank_key, achieved_at, player_id, game_id);
