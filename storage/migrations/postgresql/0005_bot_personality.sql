-- A bot seat's personality, PostgreSQL dialect of ../0005_bot_personality.sql.

ALTER TABLE seats ADD COLUMN bot_personality TEXT
    CHECK (bot_personality IS NULL OR (bot_name IS NOT NULL AND length(bot_personality) <= 64));
