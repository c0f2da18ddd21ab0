"""Side bets at a Blackjack table: escrowed with the opening bet, settled on the opening cards
through the round's settlement, and refused when the table has none or outside its limits."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.blackjack.errors import BetRefused
from bot.blackjack.events import RoundFinished
from bot.blackjack.host import BlackjackSettings, BlackjackTable
from bot.tables.clock import ManualScheduler
from engine.blackjack import CASINO, Action, StackedShoe
from engine.blackjack.sidebets import TwentyOneThreePaytable
from storage import BetReason, Storage
from tests.bot.recorder import BlackjackRecorder

GUILD, CHANNEL, ALICE = 1000, 3000, 21
RULES = dataclasses.replace(CASINO, side_21_3=TwentyOneThreePaytable.FIVE_TIER, perfect_pairs=True)
# Alice 7♥ 9♥ against the 8♥: a straight flush for 21+3, no pair; the dealer's ten makes 18.
STRAIGHT_FLUSH = "7h 8h 9h Ts 5c 5d"


def table(storage: Storage, recorder: BlackjackRecorder, rules: object = RULES) -> BlackjackTable:
    return BlackjackTable(
        storage=storage,
        guild_id=GUILD,
        channel_id=CHANNEL,
        name="#blackjack",
        settings=BlackjackSettings(rules=rules, max_side_bet=25),  # type: ignore[arg-type]
        scheduler=ManualScheduler(),
        presenter=recorder,
        shoe=StackedShoe.of(STRAIGHT_FLUSH),
    )


async def test_side_bets_are_escrowed_and_paid_on_the_opening_cards(storage: Storage) -> None:
    recorder = BlackjackRecorder()
    game = table(storage, recorder)
    sides = {BetReason.SIDE_21_3: 5, BetReason.PERFECT_PAIRS: 5}
    await game.bet(ALICE, "Alice", 10, side_bets=sides)
    assert await storage.balance(GUILD, ALICE) == 1000 - 20
    await game.deal_now(ALICE)
    snapshot = game.snapshot()
    await game.act(ALICE, snapshot.round_id or 0, snapshot.step, Action.STAND)

    [finished] = recorder.of(RoundFinished)
    [alice] = finished.results
    assert alice.lines[-2:] == ("21+3: straight flush (+200)", "Perfect Pairs: no pair (-5)")
    assert (alice.staked, alice.payout, alice.net) == (20, 205, 185)
    assert await storage.balance(GUILD, ALICE) == 1185
    assert (await storage.check()).ok


@pytest.mark.parametrize(
    ("rules", "sides", "message"),
    [
        (CASINO, {BetReason.PERFECT_PAIRS: 5}, "This table has no Perfect Pairs side bet."),
        (RULES, {BetReason.SIDE_21_3: 26}, "21+3 bets at this table are 1 to 25 chips."),
        (RULES, {BetReason.SIDE_21_3: -1}, "21+3 bets at this table are 1 to 25 chips."),
        (RULES, {BetReason.PERFECT_PAIRS: 2.5}, "must be a whole number"),
        (RULES, {BetReason.DOUBLE: 5}, "This table has no double side bet."),
    ],
)
async def test_side_bets_the_table_does_not_take_are_refused_and_change_nothing(
    storage: Storage, rules: object, sides: dict[BetReason, int], message: str
) -> None:
    game = table(storage, BlackjackRecorder(), rules)
    await storage.ensure_account(GUILD, ALICE)
    with pytest.raises(BetRefused, match=re.escape(message)):
        await game.bet(ALICE, "Alice", 10, side_bets=sides)
    assert game.round_id is None
    assert await storage.balance(GUILD, ALICE) == 1000
