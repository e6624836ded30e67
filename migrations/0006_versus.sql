-- Versus: every match (battle or race, private room or ranked quick match) with its players,
-- and the ranked 1v1 rating (Glicko-2) of each account.
--
-- Portability: `INTEGER PRIMARY KEY` is SQLite's rowid alias (PostgreSQL: `BIGINT GENERATED
-- ALWAYS AS IDENTITY PRIMARY KEY`); `BLOB` is `BYTEA` on PostgreSQL. `DOUBLE PRECISION` is
-- an 8-byte float on both (SQLite gives the column REAL affinity).
CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    -- 'battle' or 'race'.
    kind        TEXT    NOT NULL CHECK (kind IN ('battle', 'race')),
    -- 1 for a ranked quick match (ratings changed), 0 for a private room.
    ranked      INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    -- The room's code, for people reading the table.
    room        TEXT    NOT NULL,
    -- The seed every player's game was dealt.
    seed        BIGINT  NOT NULL,
    started_at  BIGINT  NOT NULL,
    ended_at    BIGINT  NOT NULL
);
CREATE INDEX matches_by_end ON matches (ended_at);

-- One row per seat of a match. Guests play too: their player_id is NULL and `name` is what
-- they were shown as.
CREATE TABLE match_players (
    match_id         BIGINT  NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat             INTEGER NOT NULL,
    player_id        BIGINT  REFERENCES players (id) ON DELETE SET NULL,
    name             TEXT    NOT NULL,
    -- 1 = winner.
    place            INTEGER NOT NULL,
    kos              INTEGER NOT NULL,
    -- Left or disconnected before the end.
    forfeited        INTEGER NOT NULL CHECK (forfeited IN (0, 1)),
    lines            BIGINT  NOT NULL,
    pieces           BIGINT  NOT NULL,
    attack_sent      BIGINT  NOT NULL,
    garbage_received BIGINT  NOT NULL,
    time_ms          BIGINT  NOT NULL,
    -- Ranked: the rating before and after the match.
    rating_before    DOUBLE PRECISION,
    rating_after     DOUBLE PRECISION,
    -- `Replay::to_bytes()` of the player's game; NULL when the session ended before sending it.
    replay           BLOB,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_players_by_player ON match_players (player_id, match_id);

-- The current Glicko-2 rating of each account that played a ranked match.
CREATE TABLE ratings (
    player_id     BIGINT           NOT NULL PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    rating        DOUBLE PRECISION NOT NULL,
    deviation     DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    games         BIGINT           NOT NULL,
    wins          BIGINT           NOT NULL,
    last_match_at BIGINT           NOT NULL
);
-- The versus board: by rating, best first (a period's board filters on last_match_at).
CREATE INDEX ratings_by_rating ON ratings (rating DESC, player_id);
