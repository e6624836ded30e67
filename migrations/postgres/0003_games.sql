-- PostgreSQL: ../0003_games.sql (comments there) with an identity id and BYTEA for BLOB.
CREATE TABLE games (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id        BIGINT  NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    mode             TEXT    NOT NULL,
    ruleset          TEXT    NOT NULL,
    ruleset_version  INTEGER NOT NULL,
    seed             BIGINT  NOT NULL,
    started_at       BIGINT  NOT NULL,
    ended_at         BIGINT  NOT NULL,
    outcome          TEXT    NOT NULL,
    verdict          TEXT    NOT NULL CHECK (verdict IN ('ranked', 'unranked', 'rejected')),
    verdict_note     TEXT,
    time_ms          BIGINT  NOT NULL,
    level            BIGINT  NOT NULL,
    lines            BIGINT  NOT NULL,
    pieces           BIGINT  NOT NULL,
    score            BIGINT  NOT NULL,
    garbage_cleared  BIGINT  NOT NULL,
    max_combo        BIGINT  NOT NULL,
    max_b2b          BIGINT  NOT NULL,
    singles          BIGINT  NOT NULL,
    doubles          BIGINT  NOT NULL,
    triples          BIGINT  NOT NULL,
    tetrises         BIGINT  NOT NULL,
    tspins           BIGINT  NOT NULL,
    perfect_clears   BIGINT  NOT NULL,
    attack           BIGINT  NOT NULL,
    sent             BIGINT  NOT NULL,
    garbage_received BIGINT  NOT NULL,
    replay           BYTEA   NOT NULL
);

CREATE INDEX games_by_player ON games (player_id, ended_at);
