"""engine.blackjack.history: per-player round summaries and the stored history codec."""

from __future__ import annotations

import pytest

from engine.blackjack.actions import HandResult, InsuranceResult, Outcome
from engine.blackjack.history import (
    HistoryError,
    PlayerHistory,
    RoundHistory,
    dumps,
    loads,
    summarise,
)
from engine.cards import parse_cards


def test_summarise_adds_up_hands_and_insurance_per_seat() -> None:
    results = [
        HandResult(0, 0, Outcome.LOSS, 100, 0),
        HandResult(0, 1, Outcome.WIN, 100, 200),
        HandResult(2, 0, Outcome.BLACKJACK, 50, 125),
    ]
    summary = summarise(results, [InsuranceResult(0, 50, 150)], seats=[0, 2, 4])
    alice, bob, idle = summary[0], summary[2], summary[4]
    assert (alice.staked, alice.payout, alice.net, alice.hands, alice.won) == (250, 350, 100, 2, 1)
    assert alice.lines == ("Hand 1: loss (-100)", "Hand 2: win (+100)", "Insurance (+100)")
    assert (bob.blackjacks, bob.lines) == (1, ("Hand 1: blackjack (+75)",))
    assert (idle.staked, idle.hands, idle.lines) == (0, 0, ())


def test_history_round_trips_through_its_stored_text() -> None:
    history = RoundHistory(
        "6 decks, dealer stands on soft 17",
        tuple(parse_cards("Ac Ks")),
        21,
        (PlayerHistory(11, "Ålice", (tuple(parse_cards("Th 9d")),), ("Hand 1: loss (-100)",)),),
    )
    text = dumps(history)
    assert "Ålice" in text  # kept readable, not escaped
    assert loads(text) == history


@pytest.mark.parametrize("text", ["", "[]", '{"rules": "x"}', '{"rules": 1, "dealer": ["Zz"]}'])
def test_history_refuses_text_it_did_not_write(text: str) -> None:
    with pytest.raises(HistoryError, match="not a Blackjack round history"):
        loads(text)
