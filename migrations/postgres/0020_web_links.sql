-- Browsers linked to accounts (issue 38, play in the browser): a one-time code made by
-- `ssh HOST web` (one a player at a time, valid minutes, used once), and the sessions it
-- opens, each a browser's cookie. Only SHA-256 digests of codes and tokens are stored. Plain
-- SQL that PostgreSQL accepts as is.
CREATE TABLE web_codes (
    code_hash  TEXT   PRIMARY KEY,
    player_id  BIGINT NOT NULL UNIQUE REFERENCES players (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
);
CREATE TABLE web_sessions (
    token_hash TEXT   PRIMARY KEY,
    player_id  BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX web_sessions_by_player ON web_sessions (player_id, created_at);
