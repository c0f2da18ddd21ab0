-- Home-game state that is not chips: each member's time bank at a table (saved at the end of
-- every hand, so a table restored after a restart gives back the bank of its last finished
-- hand), and each member's consent to the rail (spectators seeing their cards hands later).

CREATE TABLE holdem_time_banks (
    table_id        INTEGER NOT NULL REFERENCES poker_tables (table_id),
    user_id         INTEGER NOT NULL,
    seconds         INTEGER NOT NULL CHECK (seconds >= 0),
    updated_at      TEXT    NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;

CREATE TABLE holdem_rail_consent (
    guild_id        INTEGER NOT NULL REFERENCES guilds (guild_id),
    user_id         INTEGER NOT NULL,
    allowed         INTEGER NOT NULL CHECK (allowed IN (0, 1)),
    updated_at      TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
