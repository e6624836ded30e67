-- Ranked seasons (`minotty_domain::ranked`): each calendar quarter (UTC) has its own board of
-- the players who finished a rated series in it. `season` is `year * 4 + quarter - 1`; the row
-- holds the rating after the player's latest rated series of the season and the season's
-- record (series rated, series won). The all-time `ratings` row is never reset: a new season
-- starts only this board and record empty. Plain SQL that PostgreSQL accepts as is.
CREATE TABLE season_ratings (
    season        BIGINT           NOT NULL,
    player_id     BIGINT           NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    rating        DOUBLE PRECISION NOT NULL,
    deviation     DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    games         BIGINT           NOT NULL,
    wins          BIGINT           NOT NULL,
    last_match_at BIGINT           NOT NULL,
    PRIMARY KEY (season, player_id)
);
-- A season's board: by rating, best first.
CREATE INDEX season_ratings_by_rating ON season_ratings (season, rating DESC, player_id);
