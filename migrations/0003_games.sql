-- Every finished game of a registered player, with the mode's stats and the replay.
--
-- Portability: `INTEGER PRIMARY KEY` is SQLite's rowid alias (PostgreSQL: `BIGINT GENERATED
-- ALWAYS AS IDENTITY PRIMARY KEY`); `BLOB` is `BYTEA` on PostgreSQL.
--
-- The replay is the last column of the row rather than a table of its own: that saves a
-- statement and a B-tree insert per game (about 30% more games stored per second in
-- BENCHMARKS.md), and SQLite keeps the tail of a large value in overflow pages that queries
-- not selecting the column never read (PostgreSQL moves it to TOAST storage likewise).
CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    player_id        BIGINT  NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    -- `ModeKind::id()`: '40l', 'marathon', 'ultra', 'master', 'cheese', 'combo', 'custom'.
    mode             TEXT    NOT NULL,
    ruleset          TEXT    NOT NULL,
    ruleset_version  INTEGER NOT NULL,
    seed             BIGINT  NOT NULL,
    started_at       BIGINT  NOT NULL,
    ended_at         BIGINT  NOT NULL,
    -- 'won', 'block_out', 'lock_out', 'top_out', 'limit', 'combo_broken', 'forfeit' or
    -- 'unfinished' (the recording stopped before the game ended).
    outcome          TEXT    NOT NULL,
    -- Whether the game may enter the leaderboards: 'ranked' (its replay was re-simulated and
    -- reproduced its stats), 'unranked' (not a leaderboard game: custom mode, forfeit, goal not
    -- reached, ...) or 'rejected' (the replay did not reproduce the stats; kept to investigate).
    verdict          TEXT    NOT NULL CHECK (verdict IN ('ranked', 'unranked', 'rejected')),
    -- Why a game is unranked or rejected, for people; NULL when ranked.
    verdict_note     TEXT,
    -- The engine's `Stats`, one column each.
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
    -- `Replay::to_bytes()`: about 2 KB for a 40-lines game, 10 KB for three minutes of ultra.
    replay           BLOB    NOT NULL
);

-- A player's history, newest first.
CREATE INDEX games_by_player ON games (player_id, ended_at);
