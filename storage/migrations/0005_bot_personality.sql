-- A bot seat's personality (engine.bots.Personality's text, such as `Ada/+0.012/-0.030`: its
-- name, looseness and aggression), drawn when the bot sits and read back at a restart so the
-- same bot plays the same way. NULL for members and for bots seated before this migration.

ALTER TABLE seats ADD COLUMN bot_personality TEXT
    CHECK (bot_personality IS NULL OR (bot_name IS NOT NULL AND length(bot_personality) <= 64));
