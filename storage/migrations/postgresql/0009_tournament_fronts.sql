-- The PostgreSQL dialect of ../0009_tournament_fronts.sql: BIGINT ids (channel and message ids
-- are Discord snowflakes) and "C"-collated time text.
CREATE TABLE tournament_fronts (
    tournament_id    BIGINT  PRIMARY KEY REFERENCES tournaments (tournament_id),
    tables           TEXT    NOT NULL DEFAULT 'thread' CHECK (tables IN ('thread', 'channel')),
    clock_channel_id BIGINT,
    clock_message_id BIGINT,
    CHECK ((clock_channel_id IS NULL) = (clock_message_id IS NULL))
);

CREATE TABLE tournament_table_homes (
    tournament_id   BIGINT  NOT NULL REFERENCES tournaments (tournament_id),
    table_no        BIGINT  NOT NULL CHECK (table_no >= 0),
    channel_id      BIGINT  NOT NULL,
    kind            TEXT    NOT NULL CHECK (kind IN ('thread', 'channel')),
    opened_at       TEXT    COLLATE "C" NOT NULL,
    removed_at      TEXT    COLLATE "C",
    PRIMARY KEY (tournament_id, table_no)
);
