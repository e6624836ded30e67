-- PostgreSQL: ../0006_versus.sql (comments there) with an identity id and BYTEA for BLOB.
CREATE TABLE matches (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind        TEXT    NOT NULL CHECK (kind IN ('battle', 'race')),
    ranked      INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    room        TEXT    NOT NULL,
    seed        BIGINT  NOT NULL,
    started_at  BIGINT  NOT NULL,
    ended_at    BIGINT  NOT NULL
);
CREATE INDEX matches_by_end ON matches (ended_at);

CREATE TABLE match_players (
    match_id         BIGINT  NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat             INTEGER NOT NULL,
    player_id        BIGINT  REFERENCES players (id) ON DELETE SET NULL,
    name             TEXT    NOT NULL,
    place            INTEGER NOT NULL,
    kos              INTEGER NOT NULL,
    forfeited        INTEGER NOT NULL CHECK (forfeited IN (0, 1)),
    lines            BIGINT  NOT NULL,
    pieces           BIGINT  NOT NULL,
    attack_sent      BIGINT  NOT NULL,
    garbage_received BIGINT  NOT NULL,
    time_ms          BIGINT  NOT NULL,
    rating_before    DOUBLE PRECISION,
    rating_after     DOUBLE PRECISION,
    replay           BYTEA,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_players_by_player ON match_players (player_id, match_id);

CREATE TABLE ratings (
    player_id     BIGINT           NOT NULL PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    rating        DOUBLE PRECISION NOT NULL,
    deviation     DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    games         BIGINT           NOT NULL,
    wins          BIGINT           NOT NULL,
    last_match_at BIGINT           NOT NULL
);
CREATE INDEX ratings_by_rating ON ratings (rating DESC, player_id);
