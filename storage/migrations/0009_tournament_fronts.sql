-- Where a running tournament shows itself in Discord, kept so a restart (graceful or a crash)
-- edits the same tournament message and reuses the same table threads or channels instead of
-- posting and creating new ones. The lobby message's id is tournaments.lobby_message_id (it is
-- in the tournament's own channel, tournaments.channel_id).
--
-- tournament_fronts: one row per tournament whose front chose something (a tournament without
-- one has its tables in threads and no tournament message yet).
-- tournament_table_homes: each table's thread or channel, written the moment it is created (so a
-- crash before the tournament's next saved state does not make it create a second one) and
-- marked removed when the front deleted a table channel.
CREATE TABLE tournament_fronts (
    tournament_id    INTEGER PRIMARY KEY REFERENCES tournaments (tournament_id),
    tables           TEXT    NOT NULL DEFAULT 'thread' CHECK (tables IN ('thread', 'channel')),
    clock_channel_id INTEGER,
    clock_message_id INTEGER,
    CHECK ((clock_channel_id IS NULL) = (clock_message_id IS NULL))
);

CREATE TABLE tournament_table_homes (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    table_no        INTEGER NOT NULL CHECK (table_no >= 0),
    channel_id      INTEGER NOT NULL,
    kind            TEXT    NOT NULL CHECK (kind IN ('thread', 'channel')),
    opened_at       TEXT    NOT NULL,
    removed_at      TEXT,
    PRIMARY KEY (tournament_id, table_no)
) WITHOUT ROWID;
