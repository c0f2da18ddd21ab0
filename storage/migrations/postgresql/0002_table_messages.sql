-- The PostgreSQL dialect of ../0002_table_messages.sql: BIGINT ids (message ids are Discord
-- snowflakes, assigned by Discord, never by the database) and "C"-collated time text.

CREATE TABLE table_messages (
    message_id      BIGINT  PRIMARY KEY,
    guild_id        BIGINT  NOT NULL REFERENCES guilds (guild_id),
    channel_id      BIGINT  NOT NULL,
    game            TEXT    NOT NULL CHECK (game IN ('holdem', 'blackjack')),
    has_buttons     BIGINT  NOT NULL CHECK (has_buttons IN (0, 1)),
    posted_at       TEXT    COLLATE "C" NOT NULL
);
CREATE INDEX table_messages_by_channel ON table_messages (channel_id, game);

CREATE TABLE dm_refusal_notices (
    table_id        BIGINT  NOT NULL REFERENCES poker_tables (table_id),
    user_id         BIGINT  NOT NULL,
    noticed_at      TEXT    COLLATE "C" NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
