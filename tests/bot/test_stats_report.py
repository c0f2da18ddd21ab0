"""/stats text and picture views: every ratio of a game shows in its block, and the bankroll
goes hand by hand or day by day across both games."""

from __future__ import annotations

from bot.discord.stats_report import blackjack_block, by_day, by_hand, holdem_block
from engine.blackjack.stats import RATIOS as BLACKJACK_RATIOS
from engine.blackjack.stats import RoundCounts
from engine.holdem.stats import RATIOS as HOLDEM_RATIOS
from engine.holdem.stats import StyleCounts
from storage import BankrollDay, HandResult


def test_every_ratio_of_each_game_is_in_its_block() -> None:
    holdem = holdem_block(StyleCounts(hands=4, vpip=1, net=-30, net_bb_hundredths=-1500))
    blackjack = blackjack_block(RoundCounts(rounds=2, hands=2, staked=200, net=50, doubles=1))
    assert all(f"{ratio.label}: " in holdem for ratio in HOLDEM_RATIOS)
    assert all(f"{ratio.label}: " in blackjack for ratio in BLACKJACK_RATIOS)
    assert "VPIP: 25.0%" in holdem and "bb/100: -375.00" in holdem and "AF: –" in holdem
    assert "Return per round: +25.00 chips" in blackjack and "Doubles taken: 1" in blackjack


def test_the_bankroll_merges_games_by_day_or_by_hand() -> None:
    days = by_day(
        [BankrollDay("2025-03-02", 50, 3), BankrollDay("2025-03-01", -20, 1)],
        [BankrollDay("2025-03-02", 10, 1)],
    )
    assert [(s.label, s.net) for s in days] == [("2025-03-01", -20), ("2025-03-02", 60)]
    hands = by_hand(
        [HandResult("2025-03-01T10:00:00", 5), HandResult("2025-03-01T12:00:00", -7)],
        [HandResult("2025-03-01T11:00:00", 100)],
    )
    assert [(s.label, s.net) for s in hands] == [("hand 1", 5), ("hand 2", 100), ("hand 3", -7)]
