-- Accounts: a player is a name, the SSH keys that log in as it, optionally a password that lets
-- a new key join the account, and the player's settings.
--
-- Portability: `INTEGER PRIMARY KEY` is SQLite's alias of the rowid (ids assigned on insert, no
-- extra index); on PostgreSQL write `BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY`. The rest
-- is SQL that both accept. Times are integer milliseconds since the Unix epoch (UTC).
CREATE TABLE players (
    id            INTEGER PRIMARY KEY,
    -- The name as the player typed it (3-16 of A-Z a-z 0-9 - _), shown everywhere.
    name          TEXT    NOT NULL,
    -- The name in lower case. Names are unique without regard to case; a folded column with a
    -- plain UNIQUE constraint does that on both databases (no COLLATE NOCASE, no citext).
    name_folded   TEXT    NOT NULL UNIQUE,
    -- argon2id PHC string, NULL until the player sets a password.
    password_hash TEXT,
    created_at    BIGINT  NOT NULL
);

-- The SSH public keys of each player: the identity of a connection.
CREATE TABLE player_keys (
    -- 'SHA256:' and the unpadded base64 of the key's SHA-256, as `ssh-keygen -l` prints it.
    fingerprint  TEXT    NOT NULL PRIMARY KEY,
    player_id    BIGINT  NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    -- The key's algorithm name, for listing ('ssh-ed25519', ...).
    algorithm    TEXT    NOT NULL,
    added_at     BIGINT  NOT NULL,
    last_used_at BIGINT  NOT NULL
);
CREATE INDEX player_keys_by_player ON player_keys (player_id);

-- Per-player settings as JSON text; the store keeps it opaque (the UI owns its shape).
CREATE TABLE player_settings (
    player_id  BIGINT NOT NULL PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    settings   TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
