-- Poker and Blackjack statistics per guild, season, member and UTC day: counters added in the
-- transaction that settles a hand or round (storage/holdem.py, storage/blackjack.py) and
-- recomputed by `felt db stats rebuild`. Their meaning is defined in engine/holdem/stats.py
-- (StyleCounts, same names) and engine/blackjack/stats.py (RoundCounts); biggest_pot and
-- max_raises_in_a_hand keep the larger value, every other column is a sum. Rows per day give
-- the bankroll graph of /stats without reading any hand.

CREATE TABLE holdem_counts (
    season_id                  BIGINT  NOT NULL REFERENCES seasons (season_id),
    guild_id                   BIGINT  NOT NULL REFERENCES guilds (guild_id),
    user_id                    BIGINT  NOT NULL,
    day                        TEXT    COLLATE "C" NOT NULL,
    hands                      BIGINT  NOT NULL DEFAULT 0,
    vpip                       BIGINT  NOT NULL DEFAULT 0,
    pfr                        BIGINT  NOT NULL DEFAULT 0,
    three_bet_chances          BIGINT  NOT NULL DEFAULT 0,
    three_bets                 BIGINT  NOT NULL DEFAULT 0,
    fold_to_three_bet_chances  BIGINT  NOT NULL DEFAULT 0,
    folds_to_three_bet         BIGINT  NOT NULL DEFAULT 0,
    cbet_chances               BIGINT  NOT NULL DEFAULT 0,
    cbets                      BIGINT  NOT NULL DEFAULT 0,
    fold_to_cbet_chances       BIGINT  NOT NULL DEFAULT 0,
    folds_to_cbet              BIGINT  NOT NULL DEFAULT 0,
    postflop_aggressive        BIGINT  NOT NULL DEFAULT 0,
    postflop_calls             BIGINT  NOT NULL DEFAULT 0,
    postflop_folds             BIGINT  NOT NULL DEFAULT 0,
    saw_flop                   BIGINT  NOT NULL DEFAULT 0,
    showdowns                  BIGINT  NOT NULL DEFAULT 0,
    showdowns_won              BIGINT  NOT NULL DEFAULT 0,
    hands_won                  BIGINT  NOT NULL DEFAULT 0,
    won_without_showdown       BIGINT  NOT NULL DEFAULT 0,
    net                        BIGINT  NOT NULL DEFAULT 0,
    net_bb_hundredths          BIGINT  NOT NULL DEFAULT 0,
    biggest_pot                BIGINT  NOT NULL DEFAULT 0,
    max_raises_in_a_hand       BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (season_id, user_id, day)
);
CREATE INDEX holdem_counts_by_member ON holdem_counts (guild_id, user_id);

CREATE TABLE blackjack_counts (
    season_id   BIGINT  NOT NULL REFERENCES seasons (season_id),
    guild_id    BIGINT  NOT NULL REFERENCES guilds (guild_id),
    user_id     BIGINT  NOT NULL,
    day         TEXT    COLLATE "C" NOT NULL,
    rounds      BIGINT  NOT NULL DEFAULT 0,
    hands       BIGINT  NOT NULL DEFAULT 0,
    hands_won   BIGINT  NOT NULL DEFAULT 0,
    blackjacks  BIGINT  NOT NULL DEFAULT 0,
    staked      BIGINT  NOT NULL DEFAULT 0,
    net         BIGINT  NOT NULL DEFAULT 0,
    doubles     BIGINT  NOT NULL DEFAULT 0,
    splits      BIGINT  NOT NULL DEFAULT 0,
    insurances  BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (season_id, user_id, day)
);
CREATE INDEX blackjack_counts_by_member ON blackjack_counts (guild_id, user_id);
