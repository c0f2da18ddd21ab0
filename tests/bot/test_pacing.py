"""The bot has one request budget, shared by every game's tables."""

from __future__ import annotations

from types import SimpleNamespace

from bot.discord.pacing import Pacer, bot_pacer


def test_pacing_every_caller_gets_the_bots_one_pacer() -> None:
    bot = SimpleNamespace()
    first = bot_pacer(bot)
    assert isinstance(first, Pacer)
    assert bot_pacer(bot) is first
    assert bot_pacer(SimpleNamespace()) is not first


def test_pacing_budget_stays_under_discords_global_limit() -> None:
    pacer = Pacer()
    assert pacer.per_second + pacer.burst < 50
