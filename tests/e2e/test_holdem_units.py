"""The Hold'em front's pure parts: message merging, quick raises, typed amounts, start options,
result texts; and a check that the privacy scan does catch a leak."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.discord.errors import Refusal
from bot.discord.holdem import formatting
from bot.discord.holdem.formatting import raise_choices
from bot.discord.holdem.options import raise_amount, start_settings
from bot.discord.holdem.presenter import TablePresenter
from bot.discord.pacing import Pacer
from bot.discord.posts import Post, merge_posts
from bot.holdem.events import (
    HandsTabled,
    HoleCards,
    Offer,
    ShownHand,
    StreetDealt,
    TableLifecycle,
    TableSnapshot,
)
from bot.holdem.kinds import Stage
from bot.holdem.settings import HoldemSettings
from engine.cards import parse_cards
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.support.bot_world import World
from tests.e2e.support.holdem import Factory
from tests.e2e.support.privacy import check_privacy, every_card_token


def legal(call: int | None, low: int | None, high: int | None, bet: int = 0) -> Offer:
    return Offer(1, True, call is None, call, low, high, bet, bet == 0 and call is None)


def snapshot(pot: int, legal_actions: Offer) -> TableSnapshot:
    return TableSnapshot(
        table_id=1, name="t", status=TableLifecycle.OPEN, seat_count=6, small_blind=5,
        big_blind=10, ante=0, hand_id=1, street=Stage.FLOP, board=(), pots=(pot,), total_pot=pot,
        to_act_seat=1, deadline=None, legal=legal_actions, action_count=3, seats=(),
    )  # fmt: skip


def test_holdem_merge_posts_keeps_within_discord_limits() -> None:
    notices = [Post(description=f"Player {i} sits down.") for i in range(30)]
    content, embeds, used = merge_posts(notices)
    assert used == 30 and len(embeds) == 1 and content == ""
    assert embeds[0].description is not None and embeds[0].description.count("\n") == 29

    streets = [Post(title=f"Hand #1 · Street {i}", description="x" * 900) for i in range(12)]
    content, embeds, used = merge_posts(streets)
    assert used == len(embeds) == 6  # 6,000 characters across a message's embeds
    content, embeds, used = merge_posts([Post(title=f"T{i}", description="d") for i in range(12)])
    assert used == len(embeds) == 10  # at most 10 embeds
    mentions = [Post(content="<@1> " + "y" * 1500), Post(content="<@2> " + "y" * 1500)]
    content, embeds, used = merge_posts(mentions)
    assert used == 1 and len(content) <= 2000


def test_holdem_quick_raises_are_legal_distinct_and_labelled() -> None:
    # Facing a bet of 20 (call 20) with 60 in the middle, stack allows up to 500.
    choices = raise_choices(snapshot(60, legal(20, 40, 500)))
    amounts = [amount for _label, amount in choices]
    assert amounts == sorted(set(amounts)) and amounts[0] == 40 and amounts[-1] == 500
    assert [label.split()[0] for label, _ in choices] == ["Min", "½", "Pot", "All-in"]
    assert dict(choices)["Pot 100"] == 100  # 20 to call, then the pot of 80
    only_all_in = raise_choices(snapshot(60, legal(20, 45, 45)))
    assert only_all_in == [("All-in 45", 45)]
    assert raise_choices(snapshot(60, legal(20, None, None))) == []


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("120", 120), ("1,000", 1000), (" 1 000 ", 1000), ("all-in", 1000), ("MAX", 1000),
     ("min", 40)],
)  # fmt: skip
def test_holdem_raise_amounts_accepted(typed: str, expected: int) -> None:
    assert raise_amount(typed, legal(None, 40, 1000)) == expected


@pytest.mark.parametrize(
    ("typed", "reason"),
    [("-5", "negative"), ("abc", "not a number"), ("39", "below the minimum"),
     ("1001", "more than your stack"), ("9" * 20, "more than your stack"), ("", "not a number"),
     ("１２０", "not a number"), ("12.5", "not a number")],
)  # fmt: skip
def test_holdem_raise_amounts_refused(typed: str, reason: str) -> None:
    with pytest.raises(Refusal, match=reason):
        raise_amount(typed, legal(None, 40, 1000))


def test_holdem_start_options_derive_blinds_and_scale_buy_ins() -> None:
    base = HoldemSettings(small_blind=5, big_blind=10, min_buy_in=200, max_buy_in=1000, bots=5)
    bigger = start_settings(base, small_blind=50)
    assert (bigger.big_blind, bigger.min_buy_in, bigger.max_buy_in) == (100, 2000, 10000)
    assert start_settings(base, big_blind=3).small_blind == 1
    assert start_settings(base, seats=4).bots == 3  # bots fill every empty chair by default
    assert start_settings(base, seats=4, bots=1).bots == 1
    with pytest.raises(Refusal, match="turned off"):
        start_settings(base, bots=2, bots_allowed=False)
    assert start_settings(base, bots_allowed=False).bots == 5  # the caller applies the switch


def test_holdem_all_in_lines_show_equities_best_first() -> None:
    hands = (
        ShownHand(1, "Alice", tuple(parse_cards("Kh Kd")), ""),
        ShownHand(2, "Bob", tuple(parse_cards("Ah Ad")), ""),
    )
    lines = formatting.tabled_lines(HandsTabled(7, (), hands, ((1, 0.18), (2, 0.82))))
    assert lines == ["__All in__", "**Bob** A♥ A♦ — 82.0%", "**Alice** K♥ K♦ — 18.0%"]


def test_holdem_street_line_bolds_the_new_cards_and_names_the_pot() -> None:
    board = tuple(parse_cards("Ah Kd 2c 7s"))
    line = formatting.street_line(StreetDealt(3, Stage.TURN, board[3:], board, 120))
    assert line == "__Turn__ A♥ K♦ 2♣ **7♠** · pot 120"


async def test_holdem_pacer_serves_turn_offers_first_without_starving_the_rest() -> None:
    # The clock stands still until every request waits, so no token refills while the tasks
    # are still arriving (on a busy machine the first "post" could otherwise find one).
    frozen_at: float | None = time.monotonic()

    def clock() -> float:
        return frozen_at if frozen_at is not None else time.monotonic()

    pacer = Pacer(per_second=500.0, burst=1, clock=clock)
    await pacer.acquire()  # the bucket is empty now
    order: list[str] = []

    async def wait(name: str, urgent: bool) -> None:
        await pacer.acquire(urgent=urgent)
        order.append(name)

    names = [("post 1", False), ("post 2", False), ("dm", False), ("post 3", False)]
    names += [("turn 1", True), ("turn 2", True), ("turn 3", True), ("turn 4", True)]
    tasks = [asyncio.create_task(wait(name, urgent)) for name, urgent in names]
    await asyncio.sleep(0)  # one turn of the loop: every task is now waiting in the pacer
    assert order == []
    frozen_at = None
    await asyncio.gather(*tasks)
    assert order == [
        "turn 1", "turn 2", "turn 3", "post 1", "turn 4", "post 2", "dm", "post 3"
    ]  # fmt: skip


def test_holdem_card_scanner_reads_both_notations() -> None:
    text = "Board A♠ 10♥ and As Td; not Ash, nor 2cm, nor 10♥x"
    assert [str(card) for card in every_card_token(text)] == ["As", "Th", "As", "Td"]


async def test_holdem_privacy_scan_catches_a_leak(
    fake_discord: FakeDiscord,
    world: World,
    start_holdem: Factory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A presenter that posts hole cards in the channel must fail the privacy check."""
    publish = TablePresenter.publish

    async def leaky(self: TablePresenter, event: object) -> None:
        await publish(self, event)  # type: ignore[arg-type]
        if isinstance(event, HoleCards):
            cards = formatting.cards_text(event.cards)
            self.announce(f"Hand #{event.hand_id}: {cards}")

    monkeypatch.setattr(TablePresenter, "publish", leaky)
    h = await start_holdem()
    opened = await fake_discord.slash(world.alice, world.channel, "holdem start", bots=1)
    await opened.wait_answered()
    await fake_discord.wait_for_message(world.channel, lambda m: m.text.startswith("Hand #1:"))

    problems = check_privacy(fake_discord, h).problems
    assert problems and all("leaked" in problem for problem in problems)
