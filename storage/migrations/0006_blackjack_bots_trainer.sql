-- Bot players at Blackjack tables, the trainer's grades of members' decisions, side bets.
--
-- A bot in a round has a bj_players row with its name and a negative player id (bet accounts
-- and wallets belong to members, whose ids are Discord snowflakes, never negative); its chips
-- come from and go back to the guild's house, through an escrow account of kind 'seat' with no
-- member (as a bot's seat at a Hold'em table).
ALTER TABLE bj_players ADD COLUMN bot_name TEXT CHECK (bot_name IS NULL OR user_id < 0);

-- The trainer: each member's decisions in a round graded against basic strategy, how many were
-- correct, and the expected chips lost to the others (in thousandths of a chip: an expectation,
-- not chips), stored on the round's row and added up in the statistics counters with the rest.
ALTER TABLE bj_players ADD COLUMN decisions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bj_players ADD COLUMN correct_decisions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bj_players ADD COLUMN expected_loss_milli INTEGER NOT NULL DEFAULT 0;
ALTER TABLE blackjack_counts ADD COLUMN decisions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE blackjack_counts ADD COLUMN correct_decisions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE blackjack_counts ADD COLUMN expected_loss_milli INTEGER NOT NULL DEFAULT 0;

-- Side bets (21+3 and Perfect Pairs) go into a player's round escrow with the main bet: two
-- more reasons for a bet row. SQLite cannot change a CHECK, so the small table is rebuilt.
CREATE TABLE bj_bets_new (
    bet_id          INTEGER PRIMARY KEY,
    round_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    reason          TEXT    NOT NULL CHECK (reason IN ('initial', 'double', 'split', 'insurance',
                                                       'side_21_3', 'perfect_pairs')),
    amount          INTEGER NOT NULL CHECK (amount > 0),
    created_at      TEXT    NOT NULL,
    FOREIGN KEY (round_id, user_id) REFERENCES bj_players (round_id, user_id)
);
INSERT INTO bj_bets_new (bet_id, round_id, user_id, reason, amount, created_at)
    SELECT bet_id, round_id, user_id, reason, amount, created_at FROM bj_bets;
DROP TABLE bj_bets;
ALTER TABLE bj_bets_new RENAME TO bj_bets;
CREATE INDEX bj_bets_by_round ON bj_bets (round_id);
