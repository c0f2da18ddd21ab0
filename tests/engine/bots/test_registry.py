"""Strategy names and difficulties as config, the command line and tables write them."""

from __future__ import annotations

import pytest

from engine.bots.errors import UnknownStrategyError
from engine.bots.registry import DIFFICULTIES, STRATEGY_NAMES, BotSpec, parse_seats
from engine.bots.smart import Difficulty
from engine.errors import MalformedInputError


def test_registry_lists_the_strategies_and_difficulties_in_order() -> None:
    assert STRATEGY_NAMES == (
        "random", "passive", "aggressive", "smart", "minraiser", "shover", "station",
    )  # fmt: skip
    assert DIFFICULTIES == ("easy", "normal", "hard")


@pytest.mark.parametrize(
    ("text", "spec", "label"),
    [
        ("smart", BotSpec("smart"), "smart"),
        (" Smart:HARD ", BotSpec("smart", Difficulty.HARD), "smart:hard"),
        ("smart-easy", BotSpec("smart", Difficulty.EASY), "smart:easy"),
        ("smart:normal", BotSpec("smart"), "smart"),
        ("passive", BotSpec("passive"), "passive"),
    ],
)
def test_bot_spec_parses_text_and_its_label_round_trips(
    text: str, spec: BotSpec, label: str
) -> None:
    assert BotSpec.parse(text) == spec
    assert spec.label == label
    assert BotSpec.parse(spec.label) == spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("clever", "unknown strategy 'clever'"),
        ("", "needs a strategy name"),
        ("smart:genius", "unknown difficulty 'genius'"),
        ("random:hard", "no difficulty levels"),
    ],
)
def test_bot_spec_refuses_unknown_names(text: str, message: str) -> None:
    with pytest.raises(UnknownStrategyError, match=message) as caught:
        BotSpec.parse(text)
    assert isinstance(caught.value, MalformedInputError)


def test_bot_spec_constructor_checks_the_name() -> None:
    with pytest.raises(UnknownStrategyError):
        BotSpec("clever")


def test_parse_seats_reads_a_comma_list_and_refuses_an_empty_name() -> None:
    assert parse_seats("smart, random,smart:hard") == (
        BotSpec("smart"),
        BotSpec("random"),
        BotSpec("smart", Difficulty.HARD),
    )
    with pytest.raises(UnknownStrategyError, match="needs a strategy name"):
        parse_seats("smart,,random")
