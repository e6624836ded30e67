-- Snapshots: a player's stored game states (Ctrl+S in a solo game), to start a custom game
-- from. At most 20 a player (the store replaces the oldest), each at most 1024 bytes (the
-- engine's bound on its binary form) with a label of at most 64 characters.
--
-- Portability: `INTEGER PRIMARY KEY` is SQLite's rowid alias; on PostgreSQL write `BIGINT
-- GENERATED ALWAYS AS IDENTITY PRIMARY KEY`, `BYTEA` for `BLOB`, and `octet_length(bytes)` for
-- `length(bytes)` (SQLite's `length` of a BLOB counts bytes).
CREATE TABLE snapshots (
    id         INTEGER PRIMARY KEY,
    player_id  BIGINT  NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at BIGINT  NOT NULL,
    label      TEXT    NOT NULL CHECK (length(label) <= 64),
    -- The mode it was taken in, by its identifier ('40l', 'marathon', ...).
    mode       TEXT    NOT NULL,
    -- `minotty_engine::Snapshot::to_bytes`.
    bytes      BLOB    NOT NULL CHECK (length(bytes) <= 1024)
);
CREATE INDEX snapshots_by_player ON snapshots (player_id, created_at, id);
