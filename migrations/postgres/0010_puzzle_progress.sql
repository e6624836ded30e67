-- Puzzle mode's progress per account. Stages are played in order, so the highest stage cleared
-- says which stages are cleared; `completed` is set once every stage was (it unlocks what puzzle
-- mode unlocks), `updated_at` (Unix ms) is when the progress last grew. One row per account at
-- most. Plain SQL that PostgreSQL accepts as is (SQLite stores the BOOLEAN as 0 or 1).
CREATE TABLE puzzle_progress (
    player_id  BIGINT  NOT NULL PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    cleared    INTEGER NOT NULL CHECK (cleared >= 0 AND cleared <= 255),
    completed  BOOLEAN NOT NULL,
    updated_at BIGINT  NOT NULL
);
