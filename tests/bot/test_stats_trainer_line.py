"""/stats' Blackjack block carries the trainer's record: decisions graded and the expected chips
lost to mistakes, and nothing of it before the first graded decision."""

from __future__ import annotations

from bot.discord.stats_report import blackjack_block
from engine.blackjack.stats import RoundCounts


def test_the_blackjack_block_shows_the_expected_chips_lost_once_decisions_are_graded() -> None:
    graded = RoundCounts(
        rounds=3, hands=3, decisions=5, correct_decisions=4, expected_loss_milli=12_345
    )
    assert blackjack_block(graded).splitlines()[-1] == (
        "Decisions graded: 5 · Expected chips lost to mistakes: ~12.35"
    )
    assert "Expected chips lost" not in blackjack_block(RoundCounts(rounds=1, hands=1))
