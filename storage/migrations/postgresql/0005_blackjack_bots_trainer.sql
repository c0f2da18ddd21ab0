-- Bot players at Blackjack tables, and the trainer's grades of members' decisions.
--
-- A bot in a round has a bj_players row with its name and a negative player id (bet accounts
-- and wallets belong to members, whose ids are Discord snowflakes, never negative); its chips
-- come from and go back to the guild's house, through an escrow account of kind 'seat' with no
-- member (as a bot's seat at a Hold'em table).
ALTER TABLE bj_players ADD COLUMN bot_name TEXT;
ALTER TABLE bj_players ADD CONSTRAINT bj_players_bot_ids CHECK (bot_name IS NULL OR user_id < 0);

-- Per member and season: decisions graded against basic strategy, how many were correct, and
-- the expected chips lost to the others (in thousandths of a chip: an expectation, not chips).
CREATE TABLE trainer_grades (
    season_id           BIGINT  NOT NULL REFERENCES seasons (season_id),
    guild_id            BIGINT  NOT NULL REFERENCES guilds (guild_id),
    user_id             BIGINT  NOT NULL,
    decisions           BIGINT  NOT NULL DEFAULT 0 CHECK (decisions >= 0),
    correct             BIGINT  NOT NULL DEFAULT 0 CHECK (correct >= 0 AND correct <= decisions),
    expected_loss_milli BIGINT  NOT NULL DEFAULT 0 CHECK (expected_loss_milli >= 0),
    PRIMARY KEY (season_id, user_id)
);
CREATE INDEX trainer_grades_by_member ON trainer_grades (guild_id, user_id);

-- Side bets (21+3 and Perfect Pairs) go into a player's round escrow with the main bet: two
-- more reasons for a bet row.
ALTER TABLE bj_bets DROP CONSTRAINT bj_bets_reason_check;
ALTER TABLE bj_bets ADD CONSTRAINT bj_bets_reason_check CHECK (reason IN ('initial', 'double',
    'split', 'insurance', 'side_21_3', 'perfect_pairs'));
