-- A ledger row's guild is its account's: accounts.guild_id references guilds, and `felt db check`
-- names every row filed under another guild than its account's (storage/check.py,
-- _misfiled_rows). The row's own foreign key to guilds checked again, for every ledger row, what
-- the account's foreign key and that check already guarantee: a hand's settlement writes six
-- rows, and the six lookups (each locking the guild's row) cost about 25-30 us of the server's
-- ~1 ms per settlement (issue 21, measured with pg_stat_statements). It is dropped; the ledger's
-- foreign keys to its account and its operation stay. SQLite keeps its own (0011 is a no-op
-- there: its foreign key checks cost little, and dropping one would rebuild the ledger table).
ALTER TABLE ledger DROP CONSTRAINT IF EXISTS ledger_guild_id_fkey;
