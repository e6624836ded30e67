-- PostgreSQL: ../0012_snapshots.sql (comments there) with an identity id, BYTEA for BLOB and
-- octet_length for SQLite's length of a BLOB.
CREATE TABLE snapshots (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id  BIGINT  NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    label      TEXT    NOT NULL CHECK (length(label) <= 64),
    mode       TEXT    NOT NULL,
    bytes      BYTEA   NOT NULL CHECK (octet_length(bytes) <= 1024)
);
CREATE INDEX snapshots_by_player ON snapshots (player_id, created_at, id);
