"""The table's public count: the cards shown since the last shuffle, never the dealer's hole card
while it is face down, starting over at each shuffle; and a live question's answer refused when
it is not the asker's or no longer known."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.blackjack.counting import live_question
from bot.blackjack.host import BlackjackSettings, BlackjackTable
from bot.discord.blackjack.live_count import LiveCounts
from bot.discord.errors import Refusal
from bot.tables.clock import ManualScheduler
from engine.blackjack import CASINO, Action, Shoe
from engine.blackjack.counting import CountSystem, ShoeCount
from engine.cards import parse_cards
from storage import Storage
from tests.bot.blackjack.test_host import ALICE, table
from tests.bot.recorder import BlackjackRecorder

# Alice 5♥ 4♦ against the 6♣, hole T♠; the dealer draws 2♣.
ROUND = "5h 6c 4d Ts 2c"


async def test_the_public_count_leaves_out_the_hole_card_until_it_is_turned_over(
    storage: Storage,
) -> None:
    scheduler = ManualScheduler()
    game = table(storage, scheduler, BlackjackRecorder(), ROUND)
    await game.bet(ALICE, "Alice", 10)
    assert game.public_cards() == ()
    await scheduler.advance(10)

    assert game.public_cards() == tuple(parse_cards("6c 5h 4d"))
    assert game.public_count(CountSystem.HILO).running == 3
    assert game.public_count(CountSystem.KO).running == 4 - 4 * 6 + 3
    assert game.cards_shown_total == 3
    await game.act(ALICE, game.round_id or 0, game.snapshot().step, Action.STAND)

    assert sorted(game.public_cards()) == sorted(parse_cards(ROUND))
    count = game.public_count(CountSystem.HILO)
    assert (count.running, count.cards_seen, count.cards_left) == (3, 5, 6 * 52 - 5)


async def test_the_public_count_starts_over_when_the_shoe_is_shuffled(storage: Storage) -> None:
    scheduler = ManualScheduler()
    rules = dataclasses.replace(CASINO, reshuffle_every_round=True)
    game = BlackjackTable(
        storage=storage,
        guild_id=1000,
        channel_id=3000,
        name="#blackjack",
        settings=BlackjackSettings(rules=rules, betting_seconds=10, turn_seconds=20),
        scheduler=scheduler,
        presenter=BlackjackRecorder(),
        shoe=Shoe.for_rules(rules, rng=random.Random(7)),
    )
    totals = []
    for _round in range(2):
        await game.bet(ALICE, "Alice", 10)
        await scheduler.advance(10)
        for _decision in range(10):  # decline insurance, stand: until the round is over
            snapshot = game.snapshot()
            if game.round is None or snapshot.round_id is None:
                break
            choice = Action.NO_INSURANCE if Action.NO_INSURANCE in snapshot.legal else Action.STAND
            await game.act(ALICE, snapshot.round_id, snapshot.step, choice)
        totals.append(game.cards_shown_total)
    # Round 2 was dealt from a fresh shuffle: only its own cards count.
    assert len(game.public_cards()) == totals[1] - totals[0] >= 3


def test_a_live_answer_to_a_question_felt_no_longer_knows_is_refused() -> None:
    live = LiveCounts(lambda: 0.0, random.Random(1))
    with pytest.raises(Refusal, match="That question has expired"):
        live.answer(1, ALICE, 0)


def test_a_live_question_offers_the_right_count_among_four() -> None:
    count = ShoeCount(CountSystem.HILO, 2, 4, 308)
    asked = live_question(count, 3, random.Random(2))
    assert asked.right == 2 and asked.right in asked.choices and len(asked.choices) == 4
    assert asked.explanation() == (
        "4 cards shown since the shuffle before round #3; true count +0.3"
    )
