"""The terminal's bot choices: `--bots` names checked against engine.bots' strategies, each bot
given the strategy named for it, and every bot always legal."""

from __future__ import annotations

import random

import pytest

from bot.holdem.seating import BOT_NAMES
from bot.terminal.bots import (
    STRATEGY_NAMES,
    UnknownBotError,
    bot_factory,
    parse_strategies,
    strategy_of,
)
from engine.holdem import Hand, Stakes


def test_parse_strategies_reads_a_list_case_insensitively() -> None:
    assert parse_strategies("Smart, random,PASSIVE,smart:hard") == (
        "smart",
        "random",
        "passive",
        "smart:hard",
    )


@pytest.mark.parametrize("text", ["wizard", "smart,,random", "", "smart;random", "random:hard"])
def test_parse_strategies_refuses_unknown_names(text: str) -> None:
    with pytest.raises(UnknownBotError) as refused:
        parse_strategies(text)
    assert str(refused.value).startswith("--bots: ")


def test_strategy_of_follows_the_order_the_host_names_bots() -> None:
    strategies = ("aggressive", "random")
    assert [strategy_of(name, strategies) for name in BOT_NAMES[:3]] == [
        "aggressive",
        "random",
        "aggressive",
    ]


@pytest.mark.parametrize("strategy", STRATEGY_NAMES)
def test_bots_only_play_legal_actions(strategy: str) -> None:
    make = bot_factory([strategy])
    rng = random.Random(3)
    for _ in range(4):
        players = rng.randint(2, 6)
        hand = Hand(Stakes.standard(players, 5, 10, 0), [1000] * players, rng=rng)
        bots = [make(BOT_NAMES[i], "ignored", random.Random(i)) for i in range(players)]
        while not hand.is_complete:
            turn = hand.turn
            assert turn is not None
            player = turn.player
            action = bots[player].decide(hand, player)
            legal = hand.turn
            assert legal is not None and legal.allows(action)
            hand.act(player, action)
