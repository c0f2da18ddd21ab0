-- Tournaments: the lobby's registrations, the prize pool in the ledger, the running
-- tournament's saved state, the finishing places and prizes, and the hands played.
--
-- A tournament's chips in play are tournament chips, not wallet chips: they live in the saved
-- state (the engine's snapshot), never in an account. What is real money is the pool: every
-- buy-in (and fee, rebuy, add-on, re-entry) moves from a wallet (or the house, for a bot) into
-- the tournament's pool account, a member-less escrow account of kind 'seat', and leaves it as
-- a refund, a prize or the house's fee. So at every moment
--     pool balance = sum(paid_in + fees_paid) - sum(refunded) - sum(prize) - house_fee
-- which `felt db check` verifies for every tournament.
CREATE TABLE tournaments (
    tournament_id   INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id      INTEGER NOT NULL,
    created_by      INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    kind            TEXT    NOT NULL CHECK (kind IN ('sng', 'mtt')),
    buy_in          INTEGER NOT NULL CHECK (buy_in > 0),
    fee             INTEGER NOT NULL CHECK (fee >= 0),
    structure       TEXT    NOT NULL,
    seats_per_table INTEGER NOT NULL CHECK (seats_per_table BETWEEN 2 AND 10),
    max_entries     INTEGER NOT NULL CHECK (max_entries >= 2),
    starts_at       TEXT,
    bots_fill       INTEGER NOT NULL CHECK (bots_fill IN (0, 1)),
    pool_account_id INTEGER NOT NULL UNIQUE REFERENCES accounts (account_id),
    status          TEXT    NOT NULL CHECK (status IN ('registering', 'running', 'finished',
                                                       'cancelled')),
    season_id       INTEGER REFERENCES seasons (season_id),
    house_fee       INTEGER NOT NULL DEFAULT 0 CHECK (house_fee >= 0),
    lobby_message_id INTEGER,
    state           TEXT,
    state_version   INTEGER NOT NULL DEFAULT 0 CHECK (state_version >= 0),
    created_at      TEXT    NOT NULL,
    started_at      TEXT,
    ended_at        TEXT,
    cancel_reason   TEXT
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_by_status ON tournaments (status);

-- One row per player's registration: a member, or a house-funded bot. Unregistering withdraws
-- the row (refunded); registering again makes a new one. Rebuys, add-ons and re-entries add to
-- the row's payments.
CREATE TABLE tournament_entries (
    entry_id        INTEGER PRIMARY KEY,
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    user_id         INTEGER,
    bot_name        TEXT,
    status          TEXT    NOT NULL CHECK (status IN ('registered', 'withdrawn')),
    paid_in         INTEGER NOT NULL DEFAULT 0 CHECK (paid_in >= 0),
    fees_paid       INTEGER NOT NULL DEFAULT 0 CHECK (fees_paid >= 0),
    refunded        INTEGER NOT NULL DEFAULT 0 CHECK (refunded >= 0),
    rebuys          INTEGER NOT NULL DEFAULT 0 CHECK (rebuys >= 0),
    add_ons         INTEGER NOT NULL DEFAULT 0 CHECK (add_ons >= 0),
    re_entries      INTEGER NOT NULL DEFAULT 0 CHECK (re_entries >= 0),
    place           INTEGER CHECK (place >= 1),
    prize           INTEGER NOT NULL DEFAULT 0 CHECK (prize >= 0),
    registered_at   TEXT    NOT NULL,
    CHECK ((user_id IS NULL AND bot_name IS NOT NULL) OR (user_id IS NOT NULL AND bot_name IS NULL))
);
CREATE UNIQUE INDEX tournament_entries_one_per_member ON tournament_entries (tournament_id, user_id)
    WHERE status = 'registered' AND user_id IS NOT NULL;
CREATE UNIQUE INDEX tournament_entries_one_per_bot ON tournament_entries (tournament_id, bot_name)
    WHERE status = 'registered' AND bot_name IS NOT NULL;
CREATE INDEX tournament_entries_by_user ON tournament_entries (user_id);

-- The hands of a tournament, as PHH text, for `felt db export hands --tournament ID`.
CREATE TABLE tournament_hands (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    table_no        INTEGER NOT NULL CHECK (table_no >= 0),
    hand_no         INTEGER NOT NULL CHECK (hand_no >= 1),
    level           INTEGER NOT NULL CHECK (level >= 1),
    phh             TEXT    NOT NULL,
    ended_at        TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, table_no, hand_no)
) WITHOUT ROWID;
