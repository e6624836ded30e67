-- PostgreSQL: ../0002_accounts.sql (comments there) with identity ids for SQLite's rowid alias.
CREATE TABLE players (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          TEXT    NOT NULL,
    name_folded   TEXT    NOT NULL UNIQUE,
    password_hash TEXT,
    created_at    BIGINT  NOT NULL
);

CREATE TABLE player_keys (
    fingerprint  TEXT    NOT NULL PRIMARY KEY,
    player_id    BIGINT  NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    algorithm    TEXT    NOT NULL,
    added_at     BIGINT  NOT NULL,
    last_used_at BIGINT  NOT NULL
);
CREATE INDEX player_keys_by_player ON player_keys (player_id);

CREATE TABLE player_settings (
    player_id  BIGINT NOT NULL PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    settings   TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
