-- Bots in versus: a seat played by a server bot, not a person. `bot` names which bot
-- ("level 3" for the built-in bot at that level; other kinds of bots name themselves) and is
-- NULL for people. A match with a bot is never ranked, so a bot never has a rating, and its
-- `player_id` is NULL like a guest's. Plain SQL that PostgreSQL accepts as is.
ALTER TABLE match_players ADD COLUMN bot TEXT;
