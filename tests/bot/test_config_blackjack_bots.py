"""The Blackjack bots' config keys: ``bot_strategy`` and ``bot_spread`` reach a table's settings,
and a spread basic-strategy bots could not use is refused, not ignored."""

from __future__ import annotations

import pytest

from bot.blackjack.seats import BotStrategy
from bot.config import ConfigError, parse_config
from bot.discord.blackjack.options import table_settings


def test_bot_strategy_and_spread_reach_the_tables_settings() -> None:
    config = parse_config({"blackjack": {"bot_seats": 2, "bot_strategy": "hilo", "bot_spread": 12}})
    settings = table_settings(config.blackjack, {})
    assert (settings.bot_seats, settings.bot_strategy, settings.bot_spread) == (
        2,
        BotStrategy.HILO,
        12,
    )
    assert settings.bot_bet(10.0) == 12 * settings.min_bet


@pytest.mark.parametrize(
    ("blackjack", "message"),
    [
        ({"bot_spread": 4}, "bot_spread above 1 needs bot_strategy = hilo"),
        ({"bot_strategy": "martingale"}, "bot_strategy"),
        ({"bot_strategy": "hilo", "bot_spread": 17}, "bot_spread"),
        ({"bot_strategy": "hilo", "bot_spread": 0}, "bot_spread"),
    ],
)
def test_bot_settings_that_would_be_ignored_or_are_out_of_range_are_refused(
    blackjack: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config({"blackjack": blackjack})
