-- What the Discord front keeps about its table channels across restarts: the table messages it
-- still manages (so the next start can take the buttons off those that have them), and the
-- members already told in a table's channel that their DMs are closed (told once per table).

CREATE TABLE table_messages (
    message_id      INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id      INTEGER NOT NULL,
    game            TEXT    NOT NULL CHECK (game IN ('holdem', 'blackjack')),
    has_buttons     INTEGER NOT NULL CHECK (has_buttons IN (0, 1)),
    posted_at       TEXT    NOT NULL
);
CREATE INDEX table_messages_by_channel ON table_messages (channel_id, game);

CREATE TABLE dm_refusal_notices (
    table_id        INTEGER NOT NULL REFERENCES poker_tables (table_id),
    user_id         INTEGER NOT NULL,
    noticed_at      TEXT    NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;
