-- The PostgreSQL dialect of ../0008_home_flow.sql: BIGINT ids and "C"-collated time text.

CREATE TABLE holdem_time_banks (
    table_id        BIGINT  NOT NULL REFERENCES poker_tables (table_id),
    user_id         BIGINT  NOT NULL,
    seconds         BIGINT  NOT NULL CHECK (seconds >= 0),
    updated_at      TEXT    COLLATE "C" NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

CREATE TABLE holdem_rail_consent (
    guild_id        BIGINT  NOT NULL REFERENCES guilds (guild_id),
    user_id         BIGINT  NOT NULL,
    allowed         BIGINT  NOT NULL CHECK (allowed IN (0, 1)),
    updated_at      TEXT    COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
