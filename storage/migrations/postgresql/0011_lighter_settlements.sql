-- Less work for the server in each settlement (issue 21), measured with pg_stat_statements.
--
-- A ledger row's guild is its account's: accounts.guild_id references guilds, and `felt db check`
-- names every row filed under another guild than its account's (storage/check.py,
-- _misfiled_rows). The row's own foreign key to guilds checked again, for every ledger row, what
-- the account's foreign key and that check already guarantee: a hand's settlement writes six
-- rows, and the six lookups (each locking the guild's row) cost about 25-30 us of the server's
-- ~1 ms per settlement. It is dropped; the ledger's foreign keys to its account and its operation
-- stay.
ALTER TABLE ledger DROP CONSTRAINT IF EXISTS ledger_guild_id_fkey;

-- A hand's seats are inserted when it starts and updated when it settles. With every page
-- filled by the inserts of tables dealing at once, the update found no room beside its row
-- about half the time and wrote new entries in both of hand_seats' indexes (not a HOT update);
-- with room left in each page, 84% of them are HOT instead of 56% (16 tables settling at once).
ALTER TABLE hand_seats SET (fillfactor = 70);
