-- Poker and Blackjack statistics per guild, season, member and UTC day: counters added in the
-- transaction that settles a hand or round (storage/holdem.py, storage/blackjack.py) and
-- recomputed by `felt db stats rebuild`. Their meaning is defined in engine/holdem/stats.py
-- (StyleCounts, same names) and engine/blackjack/stats.py (RoundCounts); biggest_pot and
-- max_raises_in_a_hand keep the larger value, every other column is a sum. Rows per day give
-- the bankroll graph of /stats without reading any hand.

CREATE TABLE holdem_counts (
    season_id                  INTEGER NOT NULL REFERENCES seasons (season_id),
    guild_id                   INTEGER NOT NULL REFERENCES guilds (guild_id),
    user_id                    INTEGER NOT NULL,
    day                        TEXT    NOT NULL,
    hands                      INTEGER NOT NULL DEFAULT 0,
    vpip                       INTEGER NOT NULL DEFAULT 0,
    pfr                        INTEGER NOT NULL DEFAULT 0,
    three_bet_chances          INTEGER NOT NULL DEFAULT 0,
    three_bets                 INTEGER NOT NULL DEFAULT 0,
    fold_to_three_bet_chances  INTEGER NOT NULL DEFAULT 0,
    folds_to_three_bet         INTEGER NOT NULL DEFAULT 0,
    cbet_chances               INTEGER NOT NULL DEFAULT 0,
    cbets                      INTEGER NOT NULL DEFAULT 0,
    fold_to_cbet_chances       INTEGER NOT NULL DEFAULT 0,
    folds_to_cbet              INTEGER NOT NULL DEFAULT 0,
    postflop_aggressive        INTEGER NOT NULL DEFAULT 0,
    postflop_calls             INTEGER NOT NULL DEFAULT 0,
    postflop_folds             INTEGER NOT NULL DEFAULT 0,
    saw_flop                   INTEGER NOT NULL DEFAULT 0,
    showdowns                  INTEGER NOT NULL DEFAULT 0,
    showdowns_won              INTEGER NOT NULL DEFAULT 0,
    hands_won                  INTEGER NOT NULL DEFAULT 0,
    won_without_showdown       INTEGER NOT NULL DEFAULT 0,
    net                        INTEGER NOT NULL DEFAULT 0,
    net_bb_hundredths          INTEGER NOT NULL DEFAULT 0,
    biggest_pot                INTEGER NOT NULL DEFAULT 0,
    max_raises_in_a_hand       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (season_id, user_id, day)
) WITHOUT ROWID;
CREATE INDEX holdem_counts_by_member ON holdem_counts (guild_id, user_id);

CREATE TABLE blackjack_counts (
    season_id   INTEGER NOT NULL REFERENCES seasons (season_id),
    guild_id    INTEGER NOT NULL REFERENCES guilds (guild_id),
    user_id     INTEGER NOT NULL,
    day         TEXT    NOT NULL,
    rounds      INTEGER NOT NULL DEFAULT 0,
    hands       INTEGER NOT NULL DEFAULT 0,
    hands_won   INTEGER NOT NULL DEFAULT 0,
    blackjacks  INTEGER NOT NULL DEFAULT 0,
    staked      INTEGER NOT NULL DEFAULT 0,
    net         INTEGER NOT NULL DEFAULT 0,
    doubles     INTEGER NOT NULL DEFAULT 0,
    splits      INTEGER NOT NULL DEFAULT 0,
    insurances  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (season_id, user_id, day)
) WITHOUT ROWID;
CREATE INDEX blackjack_counts_by_member ON blackjack_counts (guild_id, user_id);
