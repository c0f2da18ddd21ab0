-- Instance leases: every process that hosts tables (`felt run`, `felt play`) holds a row here
-- and renews its heartbeat every few seconds; tables, hands and rounds in play record the
-- instance that opened them, so startup recovery touches only what belongs to a dead instance.

CREATE TABLE instances (
    instance_id     INTEGER PRIMARY KEY,
    role            TEXT    NOT NULL CHECK (role IN ('discord', 'terminal')),
    shard_ids       TEXT    NOT NULL,
    shard_count     INTEGER NOT NULL CHECK (shard_count >= 0),
    host            TEXT    NOT NULL,
    pid             INTEGER NOT NULL,
    started_at      TEXT    NOT NULL,
    heartbeat_at    TEXT    NOT NULL,
    expires_at      TEXT    NOT NULL,
    released_at     TEXT,
    release_reason  TEXT
);
CREATE INDEX instances_live ON instances (released_at, expires_at);

ALTER TABLE poker_tables ADD COLUMN instance_id INTEGER REFERENCES instances (instance_id);
ALTER TABLE hands ADD COLUMN instance_id INTEGER REFERENCES instances (instance_id);
ALTER TABLE bj_rounds ADD COLUMN instance_id INTEGER REFERENCES instances (instance_id);
