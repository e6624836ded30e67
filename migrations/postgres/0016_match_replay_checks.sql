-- Match replays: each seat's replay as the match recorder found it when it re-simulated it
-- (as solo games are judged): 'verified', or why not ('missing: ...', 'unverified: ...').
-- NULL for seats stored before replays were checked. Plain SQL that PostgreSQL accepts as is.
ALTER TABLE match_players ADD COLUMN replay_check TEXT;
-- A match found again by the room and seed it was played under (the results screen knows
-- them before the match has an id).
CREATE INDEX matches_by_room_seed ON matches (room, seed);
