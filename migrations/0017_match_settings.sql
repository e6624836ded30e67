-- A match's room settings (kind, seats, limit, series and stock, garbage and game rules) as
-- the room played them: the JSON of `RoomSettings`, read back through its clamped serde form
-- for the replay viewer. NULL for matches stored before. Plain SQL that PostgreSQL accepts as
-- is.
ALTER TABLE matches ADD COLUMN settings TEXT;
